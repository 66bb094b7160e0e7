import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpWarden } from '../../src/index.js';
import { PROGRESS_INTERVAL_MS } from '../../src/mcp/approvals/operator/operator-wait.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';
import { deferred } from '../support/deferred.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { bootOperatorApp, operator, runs, type OperatorApp } from './operator-app.js';

/*
 * How a handshake-era call waiting for an operator ends when no operator
 * decides: the client cancels it, or the server shuts down. Either way the
 * client gets its answer and the ask leaves the store at once (an operator
 * must not approve a call that no longer exists).
 */

let issuer: TestIssuer;
let t: OperatorApp | undefined;
let client: Client | undefined;

beforeAll(async () => {
  issuer = await startTestIssuer();
});
afterAll(() => issuer.close());
beforeEach(async () => {
  runs.purge = 0;
  // Long enough that no test here ends by the deadline.
  t = await bootOperatorApp(issuer, { elicitationTimeoutMs: 20_000 });
  client = new Client({ name: 'caller', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.url), {
      requestInit: { headers: { authorization: `Bearer ${await t.token('alice')}` } },
    }),
  );
});
afterEach(async () => {
  await client?.close().catch(() => undefined);
  await t?.close().catch(() => undefined);
  client = t = undefined;
});

/** Calls purge_notes; `waiting` resolves at the first progress notification (the call is parked). */
function purge(signal?: AbortSignal) {
  const waiting = deferred<void>();
  const result = client!.callTool({ name: 'purge_notes', arguments: {} }, undefined, {
    signal,
    onprogress: () => waiting.resolve(),
  });
  return { result, waiting: waiting.promise };
}

/** Resolves once `holds()` resolves true, checking once per event-loop turn; bounded. */
async function eventually(holds: () => Promise<boolean>, what: string): Promise<void> {
  for (let turn = 0; turn < 10_000; turn++) {
    if (await holds()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

describe('the end of an operator wait nobody decided', () => {
  it('a cancelled operator wait ends and frees its record', async () => {
    const app = t!;
    const asked = app.nextAsk();
    const controller = new AbortController();
    const call = purge(controller.signal);
    const ask = await asked;
    await call.waiting;
    expect((await app.desk.pending()).asks.map((a) => a.id)).toEqual([ask.id]);
    // The SDK sends notifications/cancelled for the request, and gives up on it.
    controller.abort('changed my mind');
    await expect(call.result).rejects.toThrow();
    await eventually(async () => (await app.desk.pending()).total === 0, 'the ask removed');
    expect(await app.desk.get(ask.id)).toBeUndefined();
    // Too late for an operator: the call is gone, and nothing runs.
    expect(
      await app.desk.decide(ask.id, operator(issuer, 'bob'), { approve: true, via: 'api' }),
    ).toEqual({ ok: false, problem: 'not found' });
    expect(runs.purge).toBe(0);
    expect(app.app.get(McpWarden).stats().inFlight).toBe(0);
    expect(app.audit.filter((e) => e.seam === 'operator').map((e) => e.detail)).toEqual([
      'Purge every note?',
      'call cancelled',
    ]);
    // The connection still serves: the next call waits for its own ask.
    const next = app.nextAsk();
    const again = purge();
    const second = await next;
    await app.desk.decide(second.id, operator(issuer, 'bob'), { approve: true, via: 'api' });
    expect((await again.result).content).toEqual([{ type: 'text', text: 'purged all' }]);
  });

  it('shutdown answers a call waiting for an operator', async () => {
    const app = t!;
    const asked = app.nextAsk();
    const call = purge();
    const ask = await asked;
    await call.waiting;
    // The app itself, so the audit stream is still heard while it closes.
    const closing = app.app.close();
    const structuredContent = {
      error: 'authorization_required',
      tool: 'purge_notes',
      decision: 'ask',
      detail: 'connection closed',
    };
    expect(await call.result).toEqual({
      content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
      isError: true,
      structuredContent,
    });
    await closing;
    expect(await app.desk.get(ask.id)).toBeUndefined();
    expect((await app.desk.pending()).total).toBe(0);
    expect(runs.purge).toBe(0);
    expect(app.audit.at(-1)).toMatchObject({
      seam: 'operator',
      decision: 'deny',
      detail: 'connection closed',
    });
  });
  it('the waiting client hears progress again each interval, counting up, with no sleep', async () => {
    // Only the interval timers are faked (the wait's ticker among them); sockets and deadlines
    // keep real time. The app boots again under them so its ticker is a faked one.
    await client?.close();
    await t?.close();
    jest.useFakeTimers({
      doNotFake: [
        'Date',
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
      ],
    });
    try {
      t = await bootOperatorApp(issuer, { elicitationTimeoutMs: 20_000 });
      client = new Client({ name: 'caller', version: '1.0.0' }, { capabilities: {} });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(t.url), {
          requestInit: { headers: { authorization: `Bearer ${await t.token('alice')}` } },
        }),
      );
      const heard: { progress: number; message?: string }[] = [];
      let next = deferred<void>();
      // The wait's ticker, watched by its handle: started once, cleared by the answer.
      const started = jest.spyOn(globalThis, 'setInterval');
      const cleared = jest.spyOn(globalThis, 'clearInterval');
      const asked = t.nextAsk();
      const result = client.callTool({ name: 'purge_notes', arguments: {} }, undefined, {
        onprogress: (progress) => {
          heard.push(progress);
          next.resolve();
        },
        // The SDK's own request timeout runs on setTimeout (real): far beyond this test.
      });
      const ask = await asked;
      await next.promise;
      // The SSE keep-alives share its period: the ticker is the one whose callback reports progress
      // (a rename fails here, on the length, rather than passing).
      const tickers = started.mock.calls.flatMap(([callback, ms], i) =>
        ms === PROGRESS_INTERVAL_MS && String(callback).includes('progress(')
          ? [started.mock.results[i].value]
          : [],
      );
      expect(tickers).toHaveLength(1);
      expect(cleared).not.toHaveBeenCalledWith(tickers[0]);
      for (const expected of [2, 3]) {
        next = deferred<void>();
        jest.advanceTimersByTime(PROGRESS_INTERVAL_MS);
        await next.promise;
        expect(heard.at(-1)?.progress).toBe(expected);
      }
      expect(heard.map((p) => p.progress)).toEqual([1, 2, 3]);
      expect(heard.every((p) => p.message === 'waiting for an operator to approve')).toBe(true);
      await t.desk.decide(ask.id, operator(issuer, 'bob'), { approve: true, via: 'api' });
      expect((await result).content).toEqual([{ type: 'text', text: 'purged all' }]);
      // The wait's ticker is gone: cleared by the answer, so driving the clock on ticks nothing.
      expect(cleared).toHaveBeenCalledWith(tickers[0]);
      const before = jest.getTimerCount();
      jest.advanceTimersByTime(3 * PROGRESS_INTERVAL_MS);
      expect(jest.getTimerCount()).toBe(before);
      expect(heard).toHaveLength(3);
    } finally {
      jest.restoreAllMocks();
      jest.useRealTimers();
    }
  });
});

describeWithService(
  await findService(TEST_REDIS_URL),
  'the end of an operator wait, in cluster mode',
  (redisUrl) => {
    let prefix: string;
    let other: OperatorApp | undefined;
    beforeEach(async () => {
      prefix = uniquePrefix();
      // The instance the call waits on is the suite's `t`, rebooted into the cluster.
      await client?.close();
      await t?.close();
      const cluster = { redisUrl, keyPrefix: prefix };
      t = await bootOperatorApp(issuer, { elicitationTimeoutMs: 20_000, cluster });
      other = await bootOperatorApp(issuer, { elicitationTimeoutMs: 20_000, cluster });
      client = new Client({ name: 'caller', version: '1.0.0' }, { capabilities: {} });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(t.url), {
          requestInit: { headers: { authorization: `Bearer ${await t.token('alice')}` } },
        }),
      );
    });
    afterEach(async () => {
      await other?.close();
      other = undefined;
      await deleteKeys(redisUrl, prefix);
    });

    it('a cancelled wait leaves the shared store: another instance no longer lists it', async () => {
      const seen = other!.nextAsk();
      const controller = new AbortController();
      const call = purge(controller.signal);
      const ask = await seen;
      await call.waiting;
      controller.abort('changed my mind');
      await expect(call.result).rejects.toThrow();
      await eventually(async () => (await other!.desk.pending()).total === 0, 'the ask removed');
      expect(await other!.desk.get(ask.id)).toBeUndefined();
    });

    it('shutdown answers the waiting call and removes its ask from the shared store', async () => {
      const seen = other!.nextAsk();
      const call = purge();
      const ask = await seen;
      await call.waiting;
      const closing = t!.app.close();
      expect((await call.result).structuredContent).toMatchObject({ detail: 'connection closed' });
      await closing;
      // Nobody can approve a call that no longer exists, from any instance.
      expect(await other!.desk.get(ask.id)).toBeUndefined();
      expect((await other!.desk.pending()).total).toBe(0);
    });
  },
);
