import { resolveMcpOptions } from '../../../options/options.resolver.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { EVICTION_ROOM, MAX_BUCKETS, McpCallRateLimiter } from './call-rate.limiter.js';

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

  it('below half a call a second, still holds one: one call, then one each 1/rate', () => {
    const rate = limiter(0.25);
    rate.take('alice', 1, 0);
    expect(refusal(() => rate.take('alice', 1, 0)).data).toEqual({ retryAfterMs: 4_000 });
    expect(() => rate.take('alice', 1, 4_000)).not.toThrow();
    expect(() => rate.take('alice', 1, 4_000)).toThrow(McpHttpError);
  });

  it('refuses a batch larger than the bucket for what it is: 400, no time to retry at', () => {
    const rate = limiter(10);
    const error = refusal(() => rate.take('alice', 21, 0));
    expect(error.status).toBe(400);
    expect(error.code).toBe(-32600);
    expect(error.headers).toEqual({});
    expect(error.data).toEqual({ mostAtOnce: 20 });
    expect(error.message).toContain('a batch of 21 requests');
    // Nothing was taken: the budget is whole for a batch that fits.
    expect(() => rate.take('alice', 20, 0)).not.toThrow();
  });

  describe('at its bound of callers', () => {
    /* `count` callers, each of whom spent its whole budget at time 0. */
    function busy(rate: McpCallRateLimiter, count: number, prefix = 'busy') {
      for (let i = 0; i < count; i++) rate.take(`${prefix}-${i}`, 2, 0);
    }
    const spent = (rate: McpCallRateLimiter, key: string) => {
      try {
        rate.take(key, 1, 0);
        return false;
      } catch {
        return true;
      }
    };

    it('drops idle callers first: while they free a tenth of the map, no busy caller goes', () => {
      const rate = limiter(1);
      busy(rate, MAX_BUCKETS - EVICTION_ROOM);
      for (let i = 0; i < EVICTION_ROOM; i++) rate.take(`idle-${i}`, 1, 0);
      // At 1,000 ms the idle callers are full again, the busy ones half.
      rate.take('newcomer', 1, 1_000);
      expect(spent(rate, 'busy-0')).toBe(true);
      expect(spent(rate, `busy-${MAX_BUCKETS - EVICTION_ROOM - 1}`)).toBe(true);
    });

    it('when every caller is busy, frees a tenth of the map at once, oldest first', () => {
      const rate = limiter(1);
      busy(rate, MAX_BUCKETS);
      rate.take('newcomer-0', 1, 0);
      // The oldest tenth start again with a full bucket; the rest keep what they spent.
      expect(spent(rate, 'busy-0')).toBe(false);
      expect(spent(rate, `busy-${EVICTION_ROOM - 1}`)).toBe(false);
      expect(spent(rate, `busy-${EVICTION_ROOM}`)).toBe(true);
      expect(spent(rate, `busy-${MAX_BUCKETS - 1}`)).toBe(true);
      // The room it left takes the next callers without another eviction: nobody else is
      // dropped (the two fresh buckets above took room too).
      for (let i = 1; i < EVICTION_ROOM - 2; i++) rate.take(`newcomer-${i}`, 1, 0);
      expect(spent(rate, `busy-${EVICTION_ROOM}`)).toBe(true);
      expect(spent(rate, `busy-${EVICTION_ROOM + 1}`)).toBe(true);
    });
  });
});
