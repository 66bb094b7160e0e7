import type { ConsoleSessionRecord } from './console-session-store.interface.js';
import { MemoryConsoleSessionStore } from './memory-console-session.store.js';

let next = 0;
function session(subject = 'olivia', ttlMs = 60_000, issuer = 'https://idp'): ConsoleSessionRecord {
  const now = Date.now();
  return {
    id: `s${++next}`,
    operator: { subject, issuer, scopes: ['mcp:approve'] },
    csrf: 'c',
    audience: 'https://w/approvals',
    createdAt: now,
    expiresAt: now + ttlMs,
    checkAt: now + ttlMs,
  };
}

describe('MemoryConsoleSessionStore', () => {
  it('an operator past their bound loses their oldest session to the new one', async () => {
    const store = new MemoryConsoleSessionStore({ maxSessions: 10, maxPerOperator: 2 });
    const [a, b, c] = [session(), session(), session()];
    for (const s of [a, b, c]) expect(await store.create(s)).toBe(true);
    expect(await store.get(a.id)).toBeUndefined();
    expect(await store.get(b.id)).toEqual(b);
    expect(await store.get(c.id)).toEqual(c);
    expect(store.size).toBe(2);
  });

  it('a full store refuses a new session, and takes one again once a session ends', async () => {
    const store = new MemoryConsoleSessionStore({ maxSessions: 2, maxPerOperator: 2 });
    const [a, b] = [session('olivia'), session('oscar')];
    await store.create(a);
    await store.create(b);
    expect(await store.create(session('otto'))).toBe(false);
    await store.remove(a.id);
    expect(await store.create(session('otto'))).toBe(true);
  });

  it('expired sessions are gone and make room', async () => {
    const store = new MemoryConsoleSessionStore({ maxSessions: 1, maxPerOperator: 1 });
    const old = session('olivia', -1);
    await store.create(old);
    expect(await store.get(old.id)).toBeUndefined();
    expect(await store.create(session('oscar'))).toBe(true);
  });

  it('removeOperator ends every session of that subject at that issuer, and no other', async () => {
    const store = new MemoryConsoleSessionStore({ maxSessions: 10, maxPerOperator: 5 });
    const mine = [session('olivia'), session('olivia')];
    const elsewhere = session('olivia', 60_000, 'https://other-idp');
    const other = session('oscar');
    for (const s of [...mine, elsewhere, other]) await store.create(s);
    await store.removeOperator(mine[0].operator);
    for (const s of mine) expect(await store.get(s.id)).toBeUndefined();
    expect(await store.get(elsewhere.id)).toEqual(elsewhere);
    expect(await store.get(other.id)).toEqual(other);
  });

  it('update replaces a live record only', async () => {
    const store = new MemoryConsoleSessionStore({ maxSessions: 10, maxPerOperator: 5 });
    const s = session();
    await store.create(s);
    expect(await store.update({ ...s, checkAt: 1 })).toBe(true);
    expect((await store.get(s.id))?.checkAt).toBe(1);
    await store.remove(s.id);
    expect(await store.update(s)).toBe(false);
  });

  it('a re-check round is claimed once; the next round afresh', async () => {
    const store = new MemoryConsoleSessionStore({ maxSessions: 10, maxPerOperator: 5 });
    const s = session();
    await store.create(s);
    expect(await store.claim(s.id, 100, 10_000)).toBe(true);
    expect(await store.claim(s.id, 100, 10_000)).toBe(false);
    expect(await store.claim(s.id, 200, 10_000)).toBe(true);
    expect(await store.claim('unknown', 100, 10_000)).toBe(false);
  });
});
