import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';

/*
 * JSON-RPC 2.0: a notification is never answered, not even with an error.
 * An `initialize` without an id inside a 2025-03-26 batch is a notification:
 * it must be dropped (it must not initialize anything either), not answered
 * with -32600 and id null. (Found by the fuzz suite's batch property at
 * FUZZ_RUNS=5000: `[{"jsonrpc":"2.0","method":"initialize","params":{…}}]`.)
 */

const initializeNotification = {
  jsonrpc: '2.0',
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'x', version: '1' },
  },
};

describe('an initialize notification inside a batch', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('alone: the batch gets no reply at all', async () => {
    t = await createMcpApp();
    await t.initialize('b', {}, '2025-03-26');
    expect(await t.server.handleMessage([initializeNotification], 'b')).toBeNull();
  });

  it('beside a ping: only the ping is answered', async () => {
    t = await createMcpApp();
    await t.initialize('b', {}, '2025-03-26');
    expect(
      await t.server.handleMessage(
        [initializeNotification, { jsonrpc: '2.0', id: 'p', method: 'ping' }],
        'b',
      ),
    ).toEqual([{ jsonrpc: '2.0', id: 'p', result: {} }]);
  });
});
