import { McpServer } from '../../src/index.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { FaultTools, HTTP_OPTIONS, callMsg, runs } from '../faults/faults-app.js';

/* A parked call the client cancels ends its POST stream: nothing is left waiting. */

describe.each(ADAPTERS)('a cancelled parked call on %s', (adapter) => {
  let t: HttpTestApp;
  afterEach(() => t?.close());

  it('notifications/cancelled for a call awaiting approval ends its POST SSE stream with no response, and the tool never runs', async () => {
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools], adapter);
    runs.length = 0;
    const server = t.app.get(McpServer);
    const { sessionId } = await t.initialize('2025-11-25', { elicitation: {} });
    const stream = new SseReader(
      await t.post(callMsg(3, 'guarded'), { 'mcp-session-id': sessionId }),
    );
    await stream.waitForMessage((m) => m.method === 'elicitation/create');
    expect(server.stats()).toMatchObject({ inFlight: 1, pendingClientRequests: 1 });

    const cancel = await t.post(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'no' } },
      { 'mcp-session-id': sessionId },
    );
    expect(cancel.status).toBe(202);
    expect(await stream.ended).toEqual({});
    expect(stream.messages.filter((m) => m.id === 3)).toEqual([]);
    expect(server.stats()).toMatchObject({ inFlight: 0, pendingClientRequests: 0 });
    expect(runs).toEqual([]);
  });
});
