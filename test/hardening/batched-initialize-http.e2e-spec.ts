import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';

/*
 * A 2025-03-26 batch never carries initialize: in process the dispatcher
 * refuses the item (-32600 "initialize cannot be batched") and the
 * connection stays as it was. Over Streamable HTTP the same must hold.
 */

describe.each(ADAPTERS)('a batch carrying initialize over Streamable HTTP on %s', (adapter) => {
  let t: HttpTestApp;
  afterEach(() => t?.close());

  it('the initialize item is -32600 and the session keeps its version and capabilities', async () => {
    t = await createHttpApp({}, [], adapter);
    const { sessionId } = await t.initialize('2025-03-26', { elicitation: {} });
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
    const batch = await t.post(
      [
        {
          jsonrpc: '2.0',
          id: 'again',
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'x', version: '1' },
          },
        },
        { jsonrpc: '2.0', id: 'p', method: 'ping' },
      ],
      headers,
    );
    expect(batch.status).toBe(200);
    const replies = (await batch.json()) as { id: string; error?: { code: number } }[];
    expect(replies.find((r) => r.id === 'again')).toEqual({
      jsonrpc: '2.0',
      id: 'again',
      error: { code: -32600, message: 'Invalid Request: initialize cannot be batched' },
    });
    expect(replies.find((r) => r.id === 'p')).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    // Still the 2025-03-26 session it was: batches are still accepted.
    const next = await t.post([{ jsonrpc: '2.0', id: 'q', method: 'ping' }], headers);
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual([{ jsonrpc: '2.0', id: 'q', result: {} }]);
  });
});
