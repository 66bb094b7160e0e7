import { McpRegistry } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { OBJECT_SCHEMA, BasicTools } from './dispatch-app.js';
describe('server dispatch', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('batches', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [BasicTools]);
    });

    const batch = [
      { jsonrpc: '2.0', id: 10, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 11,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'b' } },
      },
    ];

    it('rejects a batch with -32600 on a 2025-11-25 connection', async () => {
      await t!.initialize('modern', {}, '2025-11-25');
      const response: any = await t!.server.handleMessage(batch, 'modern');
      expect(Array.isArray(response)).toBe(false);
      expect(response.error.code).toBe(-32600);
      expect(response.id).toBeNull();
    });

    it('accepts a batch and answers an array of responses on a 2025-03-26 connection', async () => {
      await t!.initialize('legacy', {}, '2025-03-26');
      const response: any = await t!.server.handleMessage(batch, 'legacy');
      expect(Array.isArray(response)).toBe(true);
      expect(response).toHaveLength(2);
      expect(response).toEqual(
        expect.arrayContaining([
          { jsonrpc: '2.0', id: 10, result: {} },
          { jsonrpc: '2.0', id: 11, result: { content: [{ type: 'text', text: 'echo: b' }] } },
        ]),
      );
    });
  });

  describe('pagination', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [BasicTools]);
      const registry = t.app.get(McpRegistry);
      registry.unregisterTool('echo');
      for (let i = 0; i < 250; i++) {
        registry.registerTool({
          name: `tool_${String(i).padStart(3, '0')}`,
          description: `Tool number ${i}`,
          inputSchema: OBJECT_SCHEMA,
          handler: () => `ran ${i}`,
        });
      }
    });

    it('serves 250 tools in three pages of the default size with no duplicates', async () => {
      const first = await t!.result('tools/list');
      expect(first.tools).toHaveLength(100);
      expect(typeof first.nextCursor).toBe('string');
      const second = await t!.result('tools/list', { cursor: first.nextCursor });
      expect(second.tools).toHaveLength(100);
      expect(typeof second.nextCursor).toBe('string');
      const third = await t!.result('tools/list', { cursor: second.nextCursor });
      expect(third.tools).toHaveLength(50);
      expect(third).not.toHaveProperty('nextCursor');

      const names = [...first.tools, ...second.tools, ...third.tools].map((tool: any) => tool.name);
      expect(new Set(names).size).toBe(250);
      expect([...names].sort()).toEqual(
        Array.from({ length: 250 }, (_, i) => `tool_${String(i).padStart(3, '0')}`),
      );
    });

    it('answers a garbage cursor with -32602', async () => {
      const response = await t!.request('tools/list', { cursor: 'not-a-real-cursor!!' });
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32602);
    });
  });
});
