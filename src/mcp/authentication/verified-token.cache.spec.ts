import { VerifiedTokenCache } from './verified-token.cache.js';

const alice = { subject: 'alice', scopes: [] };

describe('VerifiedTokenCache', () => {
  it('trusts a verified token until its exp, and no longer', () => {
    const cache = new VerifiedTokenCache();
    cache.set('t1', alice, 100, 40_000); // exp at 100 s, seen at 40 s
    expect(cache.get('t1', 99_999)).toBe(alice);
    expect(cache.get('t1', 100_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('trusts a long-lived token for five minutes at most', () => {
    const cache = new VerifiedTokenCache();
    cache.set('t1', alice, 10_000_000, 0);
    expect(cache.get('t1', 299_999)).toBe(alice);
    expect(cache.get('t1', 300_000)).toBeUndefined();
  });

  it('keeps nothing for a token without exp or already expired, and tells tokens apart', () => {
    const cache = new VerifiedTokenCache();
    cache.set('no-exp', alice, undefined, 0);
    cache.set('expired', alice, 1, 5_000);
    expect(cache.size).toBe(0);
    cache.set('t1', alice, 100, 0);
    expect(cache.get('t2', 0)).toBeUndefined();
  });
});
