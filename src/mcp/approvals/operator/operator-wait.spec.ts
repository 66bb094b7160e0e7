import { jest } from '@jest/globals';
import { MemoryApprovalStore } from '../stores/memory-approval.store.js';
import type { McpOperatorAsk } from './operator-ask.interface.js';
import { PROGRESS_INTERVAL_MS, waitForOperator } from './operator-wait.js';

/* The handshake-era wait on a real in-memory store, its clock faked: no test here sleeps. */

const START = 1_000_000;

function ask(timeoutMs = 10 * PROGRESS_INTERVAL_MS): McpOperatorAsk {
  return {
    id: 'ask-1',
    tool: 'purge_notes',
    prompt: 'Purge?',
    caller: { subject: 'alice', key: 'p:alice' },
    preview: '{}',
    createdAt: Date.now(),
    expiresAt: Date.now() + timeoutMs,
  };
}

function setup(timeoutMs?: number, until?: number) {
  const store = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 10 });
  const controller = new AbortController();
  const progress: number[] = [];
  const a = ask(timeoutMs);
  const start = async () => {
    await store.add(a);
    return waitForOperator(store, a, {
      signal: controller.signal,
      abortDetail: () => 'call cancelled',
      progress: (count) => progress.push(count),
      ...(until !== undefined ? { until } : {}),
    });
  };
  return { store, controller, progress, ask: a, start };
}

const approval = { approved: true, operator: 'bob', decidedAt: START, via: 'api' as const };

describe('waitForOperator', () => {
  beforeEach(() => jest.useFakeTimers({ now: START }));
  afterEach(() => jest.useRealTimers());

  it('tells the client it waits at once, then every interval, until a decision; then never again', async () => {
    const t = setup();
    const wait = await t.start();
    expect(t.progress).toEqual([1]);
    await jest.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS - 1);
    expect(t.progress).toEqual([1]);
    await jest.advanceTimersByTimeAsync(1);
    expect(t.progress).toEqual([1, 2]);
    await jest.advanceTimersByTimeAsync(2 * PROGRESS_INTERVAL_MS);
    expect(t.progress).toEqual([1, 2, 3, 4]);
    await t.store.decide(t.ask.id, approval);
    expect(await wait.outcome).toMatchObject({ record: { decision: { operator: 'bob' } } });
    // Its ticker and its deadline went with it.
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(5 * PROGRESS_INTERVAL_MS);
    expect(t.progress).toEqual([1, 2, 3, 4]);
  });

  it('ends at the ask expiry with "approval timed out"', async () => {
    const t = setup(2.5 * PROGRESS_INTERVAL_MS);
    const wait = await t.start();
    let settled = false;
    void wait.outcome.then(() => (settled = true));
    await jest.advanceTimersByTimeAsync(2.5 * PROGRESS_INTERVAL_MS - 1);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await wait.outcome).toEqual({ ended: 'approval timed out' });
    expect(t.progress).toEqual([1, 2, 3]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('an abort ends it with its detail, and so does end()', async () => {
    const cancelled = setup();
    const first = await cancelled.start();
    cancelled.controller.abort();
    expect(await first.outcome).toEqual({ ended: 'call cancelled' });

    const shut = setup();
    const second = await shut.start();
    second.end('connection closed');
    second.end('a second end changes nothing');
    expect(await second.outcome).toEqual({ ended: 'connection closed' });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a decision taken before the wait began is read at once', async () => {
    const t = setup();
    await t.store.add(t.ask);
    await t.store.decide(t.ask.id, { ...approval, approved: false, reason: 'no' });
    const wait = waitForOperator(t.store, t.ask, {
      signal: t.controller.signal,
      abortDetail: () => 'call cancelled',
      progress: (count) => t.progress.push(count),
    });
    expect(await wait.outcome).toMatchObject({ record: { decision: { reason: 'no' } } });
  });

  it('an ask that left the store (expired elsewhere) reads as timed out at the next tick', async () => {
    const t = setup();
    const wait = await t.start();
    // Removed without an event, as when its record expired in a shared store: the tick re-reads it.
    await t.store.remove(t.ask.id);
    await jest.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS);
    expect(await wait.outcome).toEqual({ ended: 'approval timed out' });
  });

  it('ends pending at `until`, before the expiry, and leaves the ask in the store', async () => {
    const t = setup(4 * PROGRESS_INTERVAL_MS, START + 1.5 * PROGRESS_INTERVAL_MS);
    const wait = await t.start();
    let settled = false;
    void wait.outcome.then(() => (settled = true));
    await jest.advanceTimersByTimeAsync(1.5 * PROGRESS_INTERVAL_MS - 1);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await wait.outcome).toEqual({ pending: true });
    expect(t.progress).toEqual([1, 2]);
    expect(jest.getTimerCount()).toBe(0);
    expect((await t.store.get(t.ask.id))?.decision).toBeUndefined();
  });

  it('a decision before `until` ends it with the record', async () => {
    const t = setup(4 * PROGRESS_INTERVAL_MS, START + PROGRESS_INTERVAL_MS);
    const wait = await t.start();
    await jest.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS / 2);
    await t.store.decide(t.ask.id, approval);
    expect(await wait.outcome).toMatchObject({ record: { decision: { operator: 'bob' } } });
  });

  it('an `until` at or past the expiry ends it at the expiry, timed out', async () => {
    const t = setup(PROGRESS_INTERVAL_MS, START + 3 * PROGRESS_INTERVAL_MS);
    const wait = await t.start();
    await jest.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS);
    expect(await wait.outcome).toEqual({ ended: 'approval timed out' });
  });
});
