import { McpRegistry } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { ContentFixtures } from './registry-app.js';
import { listen } from '../support/outbound.js';
describe('registry', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('runtime registration', () => {
    let registry: McpRegistry;
    let out: ReturnType<typeof listen>;

    beforeEach(async () => {
      t = await createMcpApp({}, [ContentFixtures]);
      registry = t.app.get(McpRegistry);
      out = listen(t.server, 'watcher');
      await t.initialize('watcher');
    });

    afterEach(() => out.subscription.unsubscribe());

    const changes = () => out.messages.map((m) => m.method);

    it('registers and unregisters a tool, emitting tools/list_changed each time', async () => {
      registry.registerTool({
        name: 'runtime_tool',
        description: 'Added at runtime',
        inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
        handler: (args) => `n=${args.n}`,
      });
      expect(changes()).toEqual(['notifications/tools/list_changed']);
      const listed = await t!.result('tools/list', {}, 'watcher');
      expect(listed.tools.map((tool: any) => tool.name)).toEqual(['runtime_tool']);
      expect(await t!.callTool('runtime_tool', { n: 5 }, 'watcher')).toEqual({
        content: [{ type: 'text', text: 'n=5' }],
      });

      registry.unregisterTool('runtime_tool');
      expect(changes()).toEqual([
        'notifications/tools/list_changed',
        'notifications/tools/list_changed',
      ]);
      expect((await t!.result('tools/list', {}, 'watcher')).tools).toEqual([]);
      const gone = await t!.request(
        'tools/call',
        { name: 'runtime_tool', arguments: {} },
        'watcher',
      );
      expect(gone.error.code).toBe(-32602);
    });

    it('registers and unregisters a resource, emitting resources/list_changed each time', async () => {
      registry.registerResource({
        uri: 'mem://runtime',
        name: 'runtime',
        mimeType: 'text/plain',
        handler: () => 'runtime text',
      });
      expect(changes()).toEqual(['notifications/resources/list_changed']);
      expect(await t!.result('resources/read', { uri: 'mem://runtime' }, 'watcher')).toEqual({
        contents: [{ uri: 'mem://runtime', mimeType: 'text/plain', text: 'runtime text' }],
      });

      registry.unregisterResource('mem://runtime');
      expect(changes()).toEqual([
        'notifications/resources/list_changed',
        'notifications/resources/list_changed',
      ]);
      const { resources } = await t!.result('resources/list', {}, 'watcher');
      expect(resources.map((r: any) => r.uri)).not.toContain('mem://runtime');
      const gone = await t!.request('resources/read', { uri: 'mem://runtime' }, 'watcher');
      expect(gone.error.code).toBe(-32002);
    });

    it('registers and unregisters a resource template, emitting resources/list_changed each time', async () => {
      registry.registerResourceTemplate({
        uriTemplate: 'runtime://{key}',
        name: 'runtime-template',
        handler: (_uri, { key }) => `value of ${key}`,
      });
      expect(changes()).toEqual(['notifications/resources/list_changed']);
      const { resourceTemplates } = await t!.result('resources/templates/list', {}, 'watcher');
      expect(resourceTemplates.map((r: any) => r.uriTemplate)).toContain('runtime://{key}');
      const read = await t!.result('resources/read', { uri: 'runtime://k1' }, 'watcher');
      expect(read.contents[0].text).toBe('value of k1');

      registry.unregisterResourceTemplate('runtime://{key}');
      expect(changes()).toEqual([
        'notifications/resources/list_changed',
        'notifications/resources/list_changed',
      ]);
      const after = await t!.result('resources/templates/list', {}, 'watcher');
      expect(after.resourceTemplates.map((r: any) => r.uriTemplate)).not.toContain(
        'runtime://{key}',
      );
    });

    it('registers and unregisters a prompt, emitting prompts/list_changed each time', async () => {
      registry.registerPrompt({
        name: 'runtime_prompt',
        description: 'Added at runtime',
        handler: () => [{ role: 'user', content: { type: 'text', text: 'from runtime' } }],
      });
      expect(changes()).toEqual(['notifications/prompts/list_changed']);
      const got = await t!.result('prompts/get', { name: 'runtime_prompt' }, 'watcher');
      expect(got.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'from runtime' } },
      ]);

      registry.unregisterPrompt('runtime_prompt');
      expect(changes()).toEqual([
        'notifications/prompts/list_changed',
        'notifications/prompts/list_changed',
      ]);
      const { prompts } = await t!.result('prompts/list', {}, 'watcher');
      expect(prompts.map((p: any) => p.name)).not.toContain('runtime_prompt');
      const gone = await t!.request('prompts/get', { name: 'runtime_prompt' }, 'watcher');
      expect(gone.error.code).toBe(-32602);
    });
  });
});
