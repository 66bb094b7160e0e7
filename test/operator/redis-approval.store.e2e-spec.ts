import { jest } from '@jest/globals';
import { McpClusterBus } from '../../src/mcp/cluster/cluster-bus.js';
import { RedisApprovalStore } from '../../src/mcp/cluster/redis-approval.store.js';
import type {
  McpOperatorAsk,
  McpOperatorAskEvent,
} from '../../src/mcp/approvals/operator/operator-ask.interface.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { until } from '../support/until.js';

/* The Redis approval store against a real Redis: bounds, expiry, first decision wins, events. */

let next = 0;
function ask(ttlMs = 60_000, key = 'p:alice'): McpOperatorAsk {
  const now = Date.now();
  return {
    id: `ask-${++next}-${now}`,
    tool: 'purge_notes',
    prompt: 'Purge?',
    caller: { subject: key.slice(2), key },
    preview: '{}',
    createdAt: now,
    expiresAt: now + ttlMs,
  };
}
const decision = (operator: string, approved = true) => ({
  approved,
  operator,
  ...(approved ? {} : { reason: 'no' }),
  decidedAt: Date.now(),
  via: 'api' as const,
});

describeWithService(await findService(TEST_REDIS_URL), 'RedisApprovalStore', (redisUrl) => {
  let prefix: string;
  let buses: McpClusterBus[];

  async function open(maxPending = 10, maxPerCaller = 10): Promise<RedisApprovalStore> {
    const bus = await McpClusterBus.connect({
      redisUrl,
      keyPrefix: prefix,
      maxMessageBytes: 1024 * 1024,
    });
    buses.push(bus);
    return RedisApprovalStore.open(bus, { maxPending, maxPerCaller });
  }

  beforeEach(() => {
    prefix = uniquePrefix();
    buses = [];
  });
  afterEach(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await deleteKeys(redisUrl, prefix);
  });

  it('an ask added on one instance is read, paged and announced on another', async () => {
    const [one, two] = [await open(), await open()];
    const heard: McpOperatorAskEvent[] = [];
    two.watch((event) => heard.push(event));
    const a = ask();
    expect(await one.add(a)).toBe(true);
    expect(await two.get(a.id)).toEqual(a);
    expect((await two.pending()).asks).toEqual([a]);
    await until(() => heard.length > 0, 'the pending event');
    expect(heard[0]).toEqual({ type: 'pending', ask: a });
  });

  it('the first decision wins across instances', async () => {
    const [one, two] = [await open(), await open()];
    const a = ask();
    await one.add(a);
    const results = await Promise.all([
      one.decide(a.id, decision('bob')),
      two.decide(a.id, decision('carol', false)),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.find(Boolean)!.decision!;
    expect((await two.get(a.id))?.decision).toEqual(winner);
    expect((await one.pending()).total).toBe(0);
    expect(await one.decide('unknown', decision('bob'))).toBeUndefined();
  });

  it('a decision Redis took is announced and returned by an instance whose clock runs ahead', async () => {
    const [one, two] = [await open(), await open()];
    const heard: McpOperatorAskEvent[] = [];
    two.watch((event) => heard.push(event));
    const a = ask(1_000);
    await one.add(a);
    // Live by Redis's clock; past its expiry by the deciding instance's.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 5_000);
    let decided;
    try {
      decided = await one.decide(a.id, decision('bob'));
    } finally {
      clock.mockRestore();
    }
    expect(decided).toMatchObject({ id: a.id, decision: { operator: 'bob' } });
    await until(() => heard.some((e) => e.type === 'decided'), 'the decision announced');
    // The first decision stands: nobody decides it again.
    expect(await two.decide(a.id, decision('carol', false))).toBeUndefined();
  });

  it('refuses asks beyond maxPending and beyond the per-caller share; remove frees room', async () => {
    const store = await open(3, 2);
    const first = ask();
    expect(await store.add(first)).toBe(true);
    expect(await store.add(ask())).toBe(true);
    expect(await store.add(ask())).toBe(false);
    expect(await store.add(ask(60_000, 'p:bob'))).toBe(true);
    expect(await store.add(ask(60_000, 'p:carol'))).toBe(false);
    await store.remove(first.id);
    expect(await store.get(first.id)).toBeUndefined();
    expect(await store.add(ask())).toBe(true);
  });

  it('an ask expires at expiresAt: gone, undecidable, announced, its room free', async () => {
    const store = await open(1, 1);
    const heard: McpOperatorAskEvent[] = [];
    store.watch((event) => heard.push(event));
    const a = ask(200);
    await store.add(a);
    await new Promise((resolve) => setTimeout(resolve, a.expiresAt - Date.now() + 20));
    expect(await store.get(a.id)).toBeUndefined();
    expect(await store.decide(a.id, decision('bob'))).toBeUndefined();
    expect(await store.add(ask())).toBe(true);
    await until(() => heard.some((e) => e.type === 'expired'), 'the expired event');
    expect(heard.find((e) => e.type === 'expired')).toEqual({ type: 'expired', id: a.id });
  });

  it('a binding names one live ask on every instance; take() gives an ask to one instance only', async () => {
    const [one, two] = [await open(), await open()];
    const a = ask();
    expect(await one.add(a, 'call-1')).toBe(true);
    expect(await two.add(ask(), 'call-1')).toBe(false);
    expect((await two.bound('call-1'))?.id).toBe(a.id);
    await two.decide(a.id, decision('bob'));
    expect((await one.bound('call-1'))?.decision?.operator).toBe('bob');
    const taken = await Promise.all([one.take(a.id), two.take(a.id)]);
    expect(taken.filter(Boolean)).toHaveLength(1);
    expect(taken.find(Boolean)).toMatchObject({ id: a.id, decision: { approved: true } });
    // Gone from every index: the record, the binding, the caller's share.
    expect(await one.get(a.id)).toBeUndefined();
    expect(await two.bound('call-1')).toBeUndefined();
    expect(await one.add(ask(), 'call-1')).toBe(true);
    expect(await one.bound('call-2')).toBeUndefined();
  });

  it('remove() frees a binding; an unbound ask leaves the others alone', async () => {
    const store = await open(10, 1);
    const bound = ask();
    await store.add(bound, 'call-1');
    await store.remove(bound.id);
    expect(await store.bound('call-1')).toBeUndefined();
    const unbound = ask();
    expect(await store.add(unbound)).toBe(true);
    expect(await store.take(unbound.id)).toEqual(unbound);
    expect(await store.take(unbound.id)).toBeUndefined();
    expect(await store.add(ask(), 'call-1')).toBe(true);
  });

  it('ignores what is not an event on its channel', async () => {
    const store = await open();
    const heard: McpOperatorAskEvent[] = [];
    store.watch((event) => heard.push(event));
    buses[0].publishOn(`${prefix}approvals:events`, { type: 'decided' });
    const a = ask();
    await store.add(a);
    await until(() => heard.length > 0, 'the pending event');
    expect(heard).toEqual([{ type: 'pending', ask: a }]);
  });
});
