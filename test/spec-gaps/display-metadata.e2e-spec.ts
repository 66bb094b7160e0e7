import { Injectable } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpDefinitionError, McpRegistry, McpResource, McpTool } from '../../src/index.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { bootFailure, createMcpApp } from '../support/mcp-test-app.js';
import {
  GAPS_OPTIONS,
  GAPS_PROVIDERS,
  ICON,
  SVG_ICON,
  connectAs,
  sdkClient,
} from './spec-gaps-app.js';

/*
 * `title`, `icons` and `_meta` on every listed definition and on serverInfo,
 * resource `annotations` and `size` (spec 2025-11-25), as the official SDK
 * client receives them; and the registration checks that keep bad ones off
 * the wire.
 */

describe.each(ADAPTERS)('display metadata through the SDK client on %s', (adapter) => {
  let t: HttpTestApp;
  let client: Client;

  beforeAll(async () => {
    t = await createHttpApp(GAPS_OPTIONS, GAPS_PROVIDERS, adapter);
    client = await connectAs(sdkClient({}), t, 'alice');
  });

  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('announces title, description, icons and websiteUrl in serverInfo', () => {
    expect(client.getServerVersion()).toEqual({
      name: 'http-test',
      version: '1.0.0',
      title: 'Spec gaps server',
      description: 'Serves every 2025-11-25 display field',
      icons: [ICON],
      websiteUrl: 'https://example.com/gaps',
    });
  });

  it('lists a tool with its title, icons and _meta', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'weather')).toEqual({
      name: 'weather',
      title: 'Weather',
      description: 'Tell the weather',
      inputSchema: { type: 'object', additionalProperties: false },
      annotations: { readOnlyHint: true },
      icons: [ICON, SVG_ICON],
      _meta: { 'com.example/owner': 'team-weather', cost: 1 },
    });
    // A tool that sets none of them lists none of them.
    expect(Object.keys(tools.find((tool) => tool.name === 'conn')!).sort()).toEqual([
      'description',
      'inputSchema',
      'name',
    ]);
  });

  it('lists a resource with title, icons, _meta, annotations and size', async () => {
    const { resources } = await client.listResources();
    expect(resources.find((resource) => resource.name === 'handbook')).toEqual({
      uri: 'docs://handbook',
      name: 'handbook',
      title: 'Team handbook',
      mimeType: 'text/markdown',
      icons: [ICON],
      _meta: { 'com.example/source': 'wiki' },
      annotations: {
        audience: ['user', 'assistant'],
        priority: 0.8,
        lastModified: '2025-11-25T10:00:00Z',
      },
      size: 15,
    });
  });

  it('lists a resource template with title, icons, _meta and annotations', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: 'docs://pages/{page}',
        name: 'page',
        title: 'Handbook page',
        icons: [SVG_ICON],
        _meta: { 'com.example/source': 'wiki' },
        annotations: { audience: ['assistant'], priority: 0.2 },
      },
    ]);
  });

  it('lists a prompt with its title, icons and _meta', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: 'weekly',
        title: 'Weekly plan',
        description: 'Plan the week',
        icons: [ICON],
        _meta: { 'com.example/category': 'planning' },
      },
    ]);
  });
});

describe('display metadata: checks at registration', () => {
  const toolWith = (extra: object) => {
    @Injectable()
    class BadTools {
      @McpTool({ description: 'A tool', ...extra })
      bad() {
        return 'never listed';
      }
    }
    return BadTools;
  };

  it.each([
    ['a javascript: icon', { icons: [{ src: 'javascript:alert(1)' }] }, /icons\[0\]\.src/],
    ['a file: icon', { icons: [{ src: 'file:///etc/passwd' }] }, /icons\[0\]\.src/],
    ['a data: icon that is no image', { icons: [{ src: 'data:text/html,<b>' }] }, /data:image/],
    ['sizes that are a string', { icons: [{ src: ICON.src, sizes: '48x48' }] }, /icons\[0\]/],
    ['a size that is no WxH', { icons: [{ src: ICON.src, sizes: ['big'] }] }, /"big"/],
    ['an unknown theme', { icons: [{ src: ICON.src, theme: 'sepia' }] }, /icons\[0\]\.theme/],
    ['_meta under a reserved prefix', { _meta: { 'io.modelcontextprotocol/x': 1 } }, /reserved/],
    ['a malformed _meta key', { _meta: { 'bad key': 1 } }, /not a valid key/],
  ])('refuses to boot on %s, naming the method', async (_label, extra: object, problem) => {
    const failure = await bootFailure({}, [toolWith(extra)]);
    expect(failure).toBeInstanceOf(McpDefinitionError);
    expect(failure.message).toMatch(/BadTools\.bad/);
    expect(failure.message).toMatch(problem);
  });

  it.each([
    ['an audience nobody is', { annotations: { audience: ['robots'] } }, /annotations\.audience/],
    ['a priority above 1', { annotations: { priority: 2 } }, /annotations\.priority/],
    ['a lastModified that is no date', { annotations: { lastModified: 'today' } }, /lastModified/],
    ['a negative size', { size: -1 }, /size/],
    ['a fractional size', { size: 1.5 }, /size/],
  ])('refuses a resource with %s', async (_label, extra: object, problem) => {
    @Injectable()
    class BadResources {
      @McpResource({ uri: 'docs://bad', ...extra })
      bad() {
        return 'never listed';
      }
    }
    const failure = await bootFailure({}, [BadResources]);
    expect(failure.message).toMatch(/BadResources\.bad/);
    expect(failure.message).toMatch(problem);
  });

  it('checks runtime registration the same way, and lists what it accepted', async () => {
    const t = await createMcpApp();
    try {
      const registry = t.app.get(McpRegistry);
      const handler = () => 'ok';
      expect(() =>
        registry.registerPrompt({
          name: 'p',
          description: 'd',
          icons: [{ src: 'ftp://example.com/i.png' }],
          handler,
        }),
      ).toThrow(/registerPrompt.*icons\[0\]\.src/);
      registry.registerTool({
        name: 'late',
        description: 'Registered after boot',
        inputSchema: { type: 'object' },
        title: 'Late',
        icons: [ICON],
        _meta: { 'com.example/flag': true },
        handler,
      });
      await t.initialize();
      const { tools } = await t.result('tools/list');
      expect(tools).toEqual([
        {
          name: 'late',
          title: 'Late',
          description: 'Registered after boot',
          inputSchema: { type: 'object' },
          icons: [ICON],
          _meta: { 'com.example/flag': true },
        },
      ]);
    } finally {
      await t.close();
    }
  });

  it.each([
    ['an icon with a javascript: src', { icons: [{ src: 'javascript:alert(1)' }] }, /icons\[0\]/],
    ['a websiteUrl that is no web URL', { websiteUrl: 'mailto:team@example.com' }, /websiteUrl/],
  ])('refuses server options with %s', async (_label, options, problem) => {
    const failure = createMcpApp(options);
    await expect(failure).rejects.toThrow(McpDefinitionError);
    await expect(failure).rejects.toThrow(problem);
  });

  it('announces only name and version when no display field is set', async () => {
    const t = await createMcpApp();
    try {
      expect((await t.initialize()).serverInfo).toEqual({ name: 'test-server', version: '1.0.0' });
    } finally {
      await t.close();
    }
  });
});
