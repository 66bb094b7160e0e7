import { ExchangedTokensCache } from './exchanged-tokens.cache.js';

const token = (accessToken: string, inMs: number) => ({
  accessToken,
  expiresAt: Date.now() + inMs,
});
const HOUR = 3_600_000;

describe('ExchangedTokensCache', () => {
  it('keeps a token until 30 s before the earlier of its expiry and the inbound token’s', () => {
    const cache = new ExchangedTokensCache(10);
    const now = Date.now();
    cache.set('a', token('A', HOUR), now + 10 * 60_000);
    expect(cache.get('a', now + 9 * 60_000)?.accessToken).toBe('A');
    expect(cache.get('a', now + 10 * 60_000 - 29_000)).toBeUndefined();
  });

  it('reuses a short-lived token for nine tenths of its life at most, and never an expired one', () => {
    const cache = new ExchangedTokensCache(10);
    const now = Date.now();
    cache.set('short', token('S', 100_000), now + HOUR);
    expect(cache.get('short', now + 89_000)?.accessToken).toBe('S');
    expect(cache.get('short', now + 91_000)).toBeUndefined();
    cache.set('gone', token('G', -1), now + HOUR);
    expect(cache.get('gone')).toBeUndefined();
  });

  it('is bounded: the least recently used token goes first', () => {
    const cache = new ExchangedTokensCache(2);
    cache.set('a', token('A', HOUR), Date.now() + HOUR);
    cache.set('b', token('B', HOUR), Date.now() + HOUR);
    expect(cache.get('a')?.accessToken).toBe('A');
    cache.set('c', token('C', HOUR), Date.now() + HOUR);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.accessToken).toBe('A');
    expect(cache.get('c')?.accessToken).toBe('C');
  });

  it('digests the inbound token: the key never holds it', () => {
    const digest = ExchangedTokensCache.digestOf('eyJ.secret.token');
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(digest).not.toContain('secret');
  });
});
