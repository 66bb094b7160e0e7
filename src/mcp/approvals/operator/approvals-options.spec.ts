import { DEFAULT_REQUEST_TIMEOUT_MSEC as SDK_V2_TIMEOUT } from '@modelcontextprotocol/client';
import { DEFAULT_REQUEST_TIMEOUT_MSEC as SDK_V1_TIMEOUT } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { resolveMcpOptions } from '../../options/options.resolver.js';

/*
 * `approvals.answerWithinMs` (docs/operator-approvals.md): a call waiting for an operator
 * answers within it, so by default it must answer well before the official SDK clients give
 * up on a request (a client that sends no progress token cannot extend their timeout).
 */

const resolved = (approvals?: { answerWithinMs?: number }) =>
  resolveMcpOptions({ name: 'test', version: '1.0.0', ...(approvals ? { approvals } : {}) })
    .approvals.answerWithinMs;

describe('approvals.answerWithinMs', () => {
  it('defaults to at most half of the official SDK clients’ default request timeout', () => {
    expect(SDK_V1_TIMEOUT).toBe(60_000);
    expect(SDK_V2_TIMEOUT).toBe(60_000);
    expect(resolved()).toBeLessThanOrEqual(SDK_V1_TIMEOUT / 2);
    expect(resolved()).toBeLessThanOrEqual(SDK_V2_TIMEOUT / 2);
    // And shorter than the default ask lifetime, so the default call answers pending, not timed out.
    expect(resolved()).toBeLessThan(
      resolveMcpOptions({ name: 't', version: '1' }).elicitationTimeoutMs,
    );
  });

  it('takes a positive value, and falls back to the default on anything else', () => {
    expect(resolved({ answerWithinMs: 300 })).toBe(300);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(resolved({ answerWithinMs: bad })).toBe(resolved());
    }
  });
});
