import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { BasicTools, ContentFixtures } from './dispatch-app.js';
describe('server dispatch', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('envelope', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [BasicTools]);
    });

    it('serves requests before initialize', async () => {
      expect(await t!.result('ping')).toEqual({});
      const list = await t!.result('tools/list');
      expect(list.tools.map((tool: any) => tool.name)).toEqual(['echo']);
      expect(await t!.callTool('echo', { text: 'early' })).toEqual({
        content: [{ type: 'text', text: 'echo: early' }],
      });
    });

    it('answers a notification with null', async () => {
      await t!.initialize();
      expect(
        await t!.server.handleMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      ).toBeNull();
      expect(
        await t!.server.handleMessage({ jsonrpc: '2.0', method: 'notifications/whatever' }),
      ).toBeNull();
      // A notification naming a request method is still a notification: no reply.
      expect(await t!.server.handleMessage({ jsonrpc: '2.0', method: 'ping' })).toBeNull();
    });

    it('answers a JSON-RPC response object with null', async () => {
      expect(await t!.server.handleMessage({ jsonrpc: '2.0', id: 41, result: {} })).toBeNull();
      expect(
        await t!.server.handleMessage({
          jsonrpc: '2.0',
          id: 'srv-1',
          error: { code: -32000, message: 'nope' },
        }),
      ).toBeNull();
    });

    it('answers a JSON-RPC error response whose id is null (a reply to a parse error) with null', async () => {
      expect(
        await t!.server.handleMessage({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Parse error' },
        }),
      ).toBeNull();
    });

    it('answers an unknown method with -32601 naming the method', async () => {
      const response: any = await t!.server.handleMessage({
        jsonrpc: '2.0',
        id: 7,
        method: 'frobnicate/now',
      });
      expect(response.id).toBe(7);
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32601);
      expect(response.error.message).toContain('frobnicate/now');
    });

    it.each([
      ['a number', 42],
      ['a string', 'ping'],
      ['null', null],
      ['true', true],
    ])('answers a non-object message (%s) with -32600', async (_label, message) => {
      const response: any = await t!.server.handleMessage(message);
      expect(response.error.code).toBe(-32600);
      expect(response.id).toBeNull();
    });

    it.each([
      ['jsonrpc missing', { id: 1, method: 'ping' }],
      ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 1, method: 'ping' }],
      ['jsonrpc 2 (number)', { jsonrpc: 2, id: 1, method: 'ping' }],
      ['id null', { jsonrpc: '2.0', id: null, method: 'ping' }],
      ['id boolean', { jsonrpc: '2.0', id: true, method: 'ping' }],
      ['id object', { jsonrpc: '2.0', id: { n: 1 }, method: 'ping' }],
    ])('answers a bad envelope (%s) with -32600', async (_label, message) => {
      const response: any = await t!.server.handleMessage(message);
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32600);
    });

    it.each([
      ['tools/call with no params', 'tools/call', undefined],
      ['tools/call with no name', 'tools/call', { arguments: { text: 'x' } }],
      ['resources/read with no uri', 'resources/read', {}],
      ['prompts/get without name', 'prompts/get', { arguments: {} }],
      ['logging/setLevel without level', 'logging/setLevel', {}],
      ['completion/complete with no params', 'completion/complete', undefined],
      ['initialize without protocolVersion', 'initialize', { capabilities: {} }],
    ])('answers %s with -32602, never -32601', async (_label, method, params) => {
      const response = await t!.request(method, params);
      expect(response.error.code).toBe(-32602);
      expect(response.error.code).not.toBe(-32601);
    });

    it('answers ping with an empty result', async () => {
      const response = await t!.request('ping');
      expect(response).toEqual({ jsonrpc: '2.0', id: expect.anything(), result: {} });
    });
  });

  describe('initialize', () => {
    it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])(
      'echoes the supported version %s',
      async (version) => {
        t = await createMcpApp({}, [BasicTools]);
        const init = await t.initialize('c', {}, version);
        expect(init.protocolVersion).toBe(version);
      },
    );

    it('answers an unknown version with the newest supported one, never an error', async () => {
      t = await createMcpApp({}, [BasicTools]);
      const response = await t.request('initialize', {
        protocolVersion: '2099-01-01',
        capabilities: {},
        clientInfo: { name: 'jest', version: '1.0.0' },
      });
      expect(response.error).toBeUndefined();
      expect(response.result.protocolVersion).toBe('2025-11-25');
    });

    it('announces serverInfo and instructions', async () => {
      t = await createMcpApp({ name: 'warden-test', version: '3.2.1', instructions: 'Be nice.' });
      const init = await t.initialize();
      expect(init.serverInfo).toEqual({ name: 'warden-test', version: '3.2.1' });
      expect(init.instructions).toBe('Be nice.');
    });

    it('announces only the capabilities of what is registered (tools only)', async () => {
      t = await createMcpApp({}, [BasicTools]);
      const { capabilities } = await t.initialize();
      expect(capabilities.tools).toBeDefined();
      expect(capabilities.prompts).toBeUndefined();
      expect(capabilities.resources).toBeUndefined();
    });

    it('announces only the capabilities of what is registered (resources and prompts only)', async () => {
      t = await createMcpApp({}, [ContentFixtures]);
      const { capabilities } = await t.initialize();
      expect(capabilities.tools).toBeUndefined();
      expect(capabilities.prompts).toEqual(expect.objectContaining({ listChanged: true }));
      expect(capabilities.resources).toEqual(
        expect.objectContaining({ subscribe: true, listChanged: true }),
      );
    });
  });
});
