import { jest } from '@jest/globals';
import { MemoryApprovalStore } from './memory-approval.store.js';
import type { McpOperatorAsk, McpOperatorAskEvent } from '../operator/operator-ask.interface.js';

let next = 0;
function ask(overrides: Partial<McpOperatorAsk> = {}): McpOperatorAsk {
  const now = Date.now();
  return {
    id: `ask-${++next}`,
    tool: 'delete_note',
    prompt: 'Delete it?',
    caller: { subject: 'alice', issuer: 'https://issuer', key: 'p:alice' },
    preview: '{}',
    createdAt: now,
    expiresAt: now + 60_000,
    ...overrides,
  };
}
const approval = (operator = 'bob') => ({
  approved: true,
  operator,
  decidedAt: Date.now(),
  via: 'api' as const,
});

describe('MemoryApprovalStore', () => {
  afterEach(() => jest.useRealTimers());

  it('records an ask, announces it, and returns it pending', async () => {
    const store = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 10 });
    const events: McpOperatorAskEvent[] = [];
    store.watch((event) => events.push(event));
    const a = ask();
    expect(await store.add(a)).toBe(true);
    expect(await store.get(a.id)).toEqual(a);
    expect(events).toEqual([{ type: 'pending', ask: a }]);
  });

  it('the first decision wins; a second one is refused', async () => {
    const store = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 10 });
    const a = ask();
    await store.add(a);
    const first = await store.decide(a.id, approval('bob'));
    expect(first?.decision?.operator).toBe('bob');
    expect(await store.decide(a.id, { ...approval('carol'), approved: false })).toBeUndefined();
    expect((await store.get(a.id))?.decision).toMatchObject({ operator: 'bob', approved: true });
    expect(await store.decide('unknown', approval())).toBeUndefined();
  });

  it('refuses asks beyond maxPending, and beyond the per-caller share', async () => {
    const store = new MemoryApprovalStore({ maxPending: 3, maxPerCaller: 2 });
    expect(await store.add(ask())).toBe(true);
    expect(await store.add(ask())).toBe(true);
    expect(await store.add(ask())).toBe(false); // alice's share is full
    const bob = { subject: 'bob', key: 'p:bob' };
    expect(await store.add(ask({ caller: bob }))).toBe(true);
    expect(await store.add(ask({ caller: { subject: 'carol', key: 'p:carol' } }))).toBe(false);
    expect(store.size).toBe(3);
  });

  it('frees a share when its ask is removed', async () => {
    const store = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 1 });
    const a = ask();
    await store.add(a);
    expect(await store.add(ask())).toBe(false);
    await store.remove(a.id);
    expect(await store.get(a.id)).toBeUndefined();
    expect(await store.add(ask())).toBe(true);
  });

  it('expires asks at expiresAt, announces it and frees their room', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const store = new MemoryApprovalStore({ maxPending: 1, maxPerCaller: 1 });
    const events: McpOperatorAskEvent[] = [];
    store.watch((event) => events.push(event));
    const a = ask({ createdAt: Date.now(), expiresAt: Date.now() + 5_000 });
    await store.add(a);
    jest.setSystemTime(1_000_000 + 4_999);
    expect(await store.get(a.id)).toBeDefined();
    jest.setSystemTime(1_000_000 + 5_000);
    expect(await store.get(a.id)).toBeUndefined();
    expect(await store.decide(a.id, approval())).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'expired', id: a.id });
    expect(await store.add(ask({ expiresAt: Date.now() + 5_000 }))).toBe(true);
  });

  it('pages pending asks oldest first, leaving decided ones out', async () => {
    const store = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 10 });
    const asks = [ask(), ask(), ask(), ask()];
    for (const a of asks) await store.add(a);
    await store.decide(asks[1].id, approval());
    const first = await store.pending({ limit: 2 });
    expect(first.asks.map((a) => a.id)).toEqual([asks[0].id, asks[2].id]);
    expect(first.total).toBe(3);
    const second = await store.pending({ cursor: first.nextCursor, limit: 2 });
    expect(second.asks.map((a) => a.id)).toEqual([asks[3].id]);
    expect(second.nextCursor).toBeUndefined();
  });

  it('a listener that throws does not keep the others from hearing', async () => {
    const store = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 10 });
    const heard: string[] = [];
    store.watch(() => {
      throw new Error('boom');
    });
    const unwatch = store.watch((event) => heard.push(event.type));
    await store.add(ask());
    unwatch();
    await store.add(ask());
    expect(heard).toEqual(['pending']);
  });

  it('a binding names one live ask: a second ask under it is refused, and bound() finds the first', async () => {
    const store = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 10 });
    const [first, second] = [ask(), ask()];
    expect(await store.add(first, 'call-1')).toBe(true);
    expect(await store.add(second, 'call-1')).toBe(false);
    expect(await store.add(second, 'call-2')).toBe(true);
    expect((await store.bound('call-1'))?.id).toBe(first.id);
    await store.decide(first.id, approval());
    expect((await store.bound('call-1'))?.decision?.operator).toBe('bob');
    expect(await store.bound('call-3')).toBeUndefined();
  });

  it('take() removes an ask and returns it to one caller only, freeing its binding and share', async () => {
    const store = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 1 });
    const a = ask();
    await store.add(a, 'call-1');
    await store.decide(a.id, approval());
    const [one, two] = await Promise.all([store.take(a.id), store.take(a.id)]);
    expect([one?.decision?.approved, two]).toEqual([true, undefined]);
    expect(await store.get(a.id)).toBeUndefined();
    expect(await store.bound('call-1')).toBeUndefined();
    expect(await store.add(ask(), 'call-1')).toBe(true);
  });

  it('a binding goes when its ask is removed or expires', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const store = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 10 });
    const removed = ask();
    await store.add(removed, 'call-1');
    await store.remove(removed.id);
    expect(await store.bound('call-1')).toBeUndefined();
    const expiring = ask({ createdAt: Date.now(), expiresAt: Date.now() + 5_000 });
    await store.add(expiring, 'call-2');
    jest.setSystemTime(1_000_000 + 5_000);
    expect(await store.bound('call-2')).toBeUndefined();
    expect(await store.add(ask({ expiresAt: Date.now() + 5_000 }), 'call-2')).toBe(true);
  });
});
