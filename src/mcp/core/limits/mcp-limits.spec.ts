import { DEFAULT_LIMITS, resolveLimits } from './default-limits.js';

describe('resolveLimits', () => {
  it('applies every default', () => {
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toMatchObject({
      maxBodyBytes: 4 * 1024 * 1024,
      maxLineBytes: 4 * 1024 * 1024,
      toolTimeoutMs: 60_000,
      authorizerTimeoutMs: 5_000,
      maxRequestStates: 100_000,
      maxRequestStatesPerPrincipal: 1_000,
    });
  });

  it('keeps valid overrides and ignores non-positive or non-numeric ones', () => {
    const limits = resolveLimits({ maxSessions: 5, toolTimeoutMs: 0, maxBodyBytes: NaN });
    expect(limits.maxSessions).toBe(5);
    expect(limits.toolTimeoutMs).toBe(DEFAULT_LIMITS.toolTimeoutMs);
    expect(limits.maxBodyBytes).toBe(DEFAULT_LIMITS.maxBodyBytes);
  });
});
