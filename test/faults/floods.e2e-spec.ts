import { McpHttpSessions } from '../../src/testing/index.js';
import {
  ADAPTERS,
  createHttpApp,
  initializeParams,
  type HttpTestApp,
} from '../support/http-app.js';
import { deferred } from '../support/deferred.js';
import {
  FaultTools,
  HTTP_OPTIONS,
  bodyOf,
  callMsg,
  signals,
  useFaultChecks,
  type Msg,
} from './faults-app.js';

/* Floods over HTTP: of sessions, and of requests on one session. */

useFaultChecks();

describe.each(ADAPTERS)('floods on %s', (adapter) => {
  let t: HttpTestApp;
  afterEach(() => t?.close());

  it('a flood of sessions: past maxSessions, 503 with a JSON-RPC body; live sessions keep working', async () => {
    t = await createHttpApp({ ...HTTP_OPTIONS, limits: { maxSessions: 3 } }, [FaultTools], adapter);
    const first = await t.initialize();
    const inits = Array.from({ length: 12 }, () => t.message('initialize', initializeParams()));
    const flood = await Promise.all(inits.map((init) => t.post(init)));
    const statuses = flood.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, ...Array(10).fill(503)]);
    for (const [index, refused] of flood.entries()) {
      if (refused.status !== 503) continue;
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      // Each refusal names the initialize it refuses.
      expect(await refused.json()).toEqual({
        jsonrpc: '2.0',
        id: inits[index].id,
        error: { code: expect.any(Number), message: expect.stringMatching(/too many sessions/) },
      });
    }
    const admitted = flood.filter((r) => r.status === 200);
    const ids = [first.sessionId, ...admitted.map((r) => r.headers.get('mcp-session-id')!)];
    for (const r of admitted) await r.json();
    for (const sessionId of ids) {
      const call = await t.post(callMsg(2, 'quick'), { 'mcp-session-id': sessionId });
      expect((await bodyOf(call)).result.content).toEqual([{ type: 'text', text: 'quick' }]);
    }
    expect(t.app.get(McpHttpSessions).size).toBe(3);
  });

  it('a flood of requests on one session: -31429 past maxInFlightPerConnection; another session is unaffected', async () => {
    signals.gate = deferred();
    t = await createHttpApp(
      { ...HTTP_OPTIONS, limits: { maxInFlightPerConnection: 2 } },
      [FaultTools],
      adapter,
    );
    const a = await t.initialize();
    const b = await t.initialize();
    const headersA = { 'mcp-session-id': a.sessionId };
    const held = [t.post(callMsg(1, 'wait'), headersA), t.post(callMsg(2, 'wait'), headersA)];
    // The refusal is only certain once both calls are in flight: probe until one is refused.
    let refused: Msg | undefined;
    for (let id = 3; !refused; id++) {
      expect(id).toBeLessThan(1_000);
      const reply = (await (await t.post(callMsg(id, 'quick'), headersA)).json()) as Msg;
      if (reply.error) refused = reply;
    }
    expect(refused).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      error: { code: -31429, message: 'Too many requests in flight' },
    });
    const other = await t.post(callMsg(9, 'quick'), { 'mcp-session-id': b.sessionId });
    expect((await bodyOf(other)).result.content).toEqual([{ type: 'text', text: 'quick' }]);
    signals.gate.resolve();
    for (const response of held) {
      expect((await bodyOf(await response)).result.content).toEqual([
        { type: 'text', text: 'waited' },
      ]);
    }
    const again = await t.post(callMsg(10, 'quick'), headersA);
    expect((await bodyOf(again)).result.content).toEqual([{ type: 'text', text: 'quick' }]);
  });
});
