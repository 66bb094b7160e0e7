import { resolveMcpOptions } from '../../../options/options.resolver.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { McpCallRateLimiter } from './call-rate.limiter.js';

function limiter(callsPerSecondPerPrincipal: number) {
  return new McpCallRateLimiter(
    resolveMcpOptions({ name: 't', version: '1', limits: { callsPerSecondPerPrincipal } }),
  );
}

function refusal(run: () => void): McpHttpError {
  try {
    run();
  } catch (error) {
    return error as McpHttpError;
  }
  throw new Error('expected a refusal');
}

describe('McpCallRateLimiter', () => {
  it('lets a caller burst two seconds of budget, then refuses with 429 and when to retry', () => {
    const rate = limiter(10);
    for (let i = 0; i < 20; i++) rate.take('alice', 1, 1_000);
    const error = refusal(() => rate.take('alice', 1, 1_000));
    expect(error.status).toBe(429);
    expect(error.code).toBe(-31429);
    expect(error.data).toEqual({ retryAfterMs: 100 });
    expect(error.headers).toEqual({ 'Retry-After': '1' });
  });

  it('refills with time, and one caller never spends another’s budget', () => {
    const rate = limiter(10);
    rate.take('alice', 20, 0);
    expect(() => rate.take('alice', 1, 0)).toThrow(McpHttpError);
    expect(() => rate.take('bob', 20, 0)).not.toThrow();
    expect(() => rate.take('alice', 5, 500)).not.toThrow();
    expect(() => rate.take('alice', 1, 500)).toThrow(McpHttpError);
  });

  it('counts a batch as its number of requests, and a notification as none', () => {
    const rate = limiter(1);
    rate.take('alice', 0, 0);
    rate.take('alice', 2, 0);
    expect(refusal(() => rate.take('alice', 1, 0)).data).toEqual({ retryAfterMs: 1_000 });
  });
});
