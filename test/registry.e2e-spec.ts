import { Injectable, type Provider } from '@nestjs/common';
import { IsInt, IsNotEmpty, IsOptional, IsString, Min } from 'class-validator';
import type { Subscription } from 'rxjs';
import {
  McpPrompt,
  McpRegistry,
  McpResource,
  McpResourceTemplate,
  McpTool,
  type McpModuleOptions,
  type McpServer,
} from '../src/index.js';
import {
  bootFailure as bootFailureOf,
  createMcpApp,
  type McpTestApp,
} from './support/mcp-test-app.js';

/* ------------------------------------------------------------------ helpers */

/** Subscribes once to a connection's outbound channel and records every message. */
function listen(server: McpServer, connId: string) {
  const messages: any[] = [];
  const subscription: Subscription = server
    .subscribe(connId)
    .subscribe((message) => messages.push(message));
  return { messages, subscription };
}

/** Boots an app that must fail `app.init()` and returns the error. */
function bootFailure(providers: Provider[], options: Partial<McpModuleOptions> = {}) {
  return bootFailureOf(options, providers);
}

const OBJECT_SCHEMA = { type: 'object' } as const;

/* ----------------------------------------------------------------- fixtures */

class CreateNoteDto {
  @IsString()
  @IsNotEmpty()
  title: string;

  @IsInt()
  @Min(1)
  priority: number;

  @IsOptional()
  @IsString()
  body?: string;
}

const ROUTE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    point: {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' } },
      required: ['x', 'y'],
    },
  },
  properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } },
  required: ['from', 'to'],
};

const COUNT_OUTPUT = {
  type: 'object',
  properties: { count: { type: 'integer' } },
  required: ['count'],
};

@Injectable()
class DiscoveredTools {
  @McpTool({ description: 'Named after its method', input: OBJECT_SCHEMA })
  method_named() {
    return 'by method';
  }

  @McpTool({ name: 'explicit.name', title: 'Explicit', description: 'Named explicitly' })
  somethingElse() {
    return 'by option';
  }

  @McpTool({ description: 'Creates a note from a DTO', input: CreateNoteDto })
  create_note(args: CreateNoteDto) {
    return {
      isDto: args instanceof CreateNoteDto,
      title: args.title,
      priority: args.priority,
    };
  }

  @McpTool({ description: 'Distance between two points', input: ROUTE_SCHEMA })
  route({ from, to }: { from: { x: number; y: number }; to: { x: number; y: number } }) {
    return String(Math.hypot(to.x - from.x, to.y - from.y));
  }

  @McpTool({ description: 'Counts correctly', input: OBJECT_SCHEMA, output: COUNT_OUTPUT })
  good_count() {
    return { count: 3 };
  }

  @McpTool({ description: 'Counts wrongly', input: OBJECT_SCHEMA, output: COUNT_OUTPUT })
  bad_count() {
    return { count: 'three' };
  }
}

@Injectable()
class ReturnShapeTools {
  @McpTool({ description: 'Returns a string', input: OBJECT_SCHEMA })
  as_string() {
    return 'plain text';
  }

  @McpTool({ description: 'Returns content', input: OBJECT_SCHEMA })
  as_content() {
    return [
      { type: 'text', text: 'first' },
      { type: 'text', text: 'second' },
    ];
  }

  @McpTool({ description: 'Returns a full result', input: OBJECT_SCHEMA })
  as_result() {
    return {
      content: [{ type: 'text', text: 'full' }],
      structuredContent: { full: true },
      isError: false,
    };
  }

  @McpTool({ description: 'Returns an object', input: OBJECT_SCHEMA })
  as_object() {
    return { answer: 42, tags: ['a', 'b'] };
  }
}

@Injectable()
class ContentFixtures {
  @McpResource({ uri: 'mem://text', description: 'Some text', mimeType: 'text/plain' })
  text() {
    return 'hello resource';
  }

  @McpResource({ uri: 'mem://bytes', mimeType: 'application/octet-stream' })
  bytes() {
    return new Uint8Array([1, 2, 3, 250]);
  }

  @McpResource({ uri: 'mem://buffer' })
  buffer() {
    return Buffer.from('buf');
  }

  @McpResource({ uri: 'mem://full', name: 'full-result' })
  full() {
    return {
      contents: [
        { uri: 'mem://full', mimeType: 'application/json', text: '{"a":1}' },
        { uri: 'mem://full#2', text: 'second part' },
      ],
    };
  }

  @McpResourceTemplate({
    uriTemplate: 'notes://{folder}/{id}',
    description: 'A note in a folder',
    mimeType: 'application/json',
  })
  note(uri: string, variables: Record<string, string>) {
    return JSON.stringify({ uri, variables });
  }

  @McpPrompt({
    description: 'Summarise a topic',
    arguments: [
      { name: 'topic', description: 'What to summarise', required: true },
      { name: 'tone', required: false },
    ],
  })
  summarise({ topic, tone }: Record<string, string>) {
    return [
      {
        role: 'user',
        content: { type: 'text', text: `Summarise ${topic} (${tone ?? 'neutral'})` },
      },
    ];
  }

  @McpPrompt({ name: 'full_prompt', description: 'Returns a full result' })
  fullPrompt() {
    return {
      description: 'custom description',
      messages: [{ role: 'assistant', content: { type: 'text', text: 'ready' } }],
    };
  }
}

@Injectable()
class BadNameTools {
  @McpTool({ name: 'bad name', description: 'Has a space in its name', input: OBJECT_SCHEMA })
  spaced() {
    return '';
  }
}

@Injectable()
class NoDescriptionTools {
  @McpTool({ input: OBJECT_SCHEMA } as any)
  undescribed() {
    return '';
  }
}

@Injectable()
class StringInputTools {
  @McpTool({ description: 'Input is not an object schema', input: { type: 'string' } })
  stringy() {
    return '';
  }
}

@Injectable()
class DuplicateTools {
  @McpTool({ name: 'same', description: 'First', input: OBJECT_SCHEMA })
  first() {
    return '';
  }

  @McpTool({ name: 'same', description: 'Second', input: OBJECT_SCHEMA })
  second() {
    return '';
  }
}

/* -------------------------------------------------------------------- tests */

describe('registry', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('decorator discovery', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [DiscoveredTools, ContentFixtures]);
    });

    it('names an @McpTool after its method by default, or after its name option', async () => {
      const { tools } = await t!.result('tools/list');
      const names = tools.map((tool: any) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['method_named', 'explicit.name']));
      expect(names).not.toContain('somethingElse');
      expect(tools.find((tool: any) => tool.name === 'explicit.name')).toMatchObject({
        title: 'Explicit',
        description: 'Named explicitly',
      });
      expect(await t!.callTool('method_named', {})).toEqual({
        content: [{ type: 'text', text: 'by method' }],
      });
      expect(await t!.callTool('explicit.name', {})).toEqual({
        content: [{ type: 'text', text: 'by option' }],
      });
    });

    it('discovers @McpResource methods', async () => {
      const { resources } = await t!.result('resources/list');
      expect(resources).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            uri: 'mem://text',
            description: 'Some text',
            mimeType: 'text/plain',
          }),
          expect.objectContaining({ uri: 'mem://full', name: 'full-result' }),
        ]),
      );
      expect(resources).toHaveLength(4);
    });

    it('discovers @McpResourceTemplate methods and passes the matched variables to the handler', async () => {
      const { resourceTemplates } = await t!.result('resources/templates/list');
      expect(resourceTemplates).toEqual([
        expect.objectContaining({
          uriTemplate: 'notes://{folder}/{id}',
          description: 'A note in a folder',
          mimeType: 'application/json',
        }),
      ]);
      const read = await t!.result('resources/read', { uri: 'notes://work/42' });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0].uri).toBe('notes://work/42');
      expect(JSON.parse(read.contents[0].text)).toEqual({
        uri: 'notes://work/42',
        variables: { folder: 'work', id: '42' },
      });
    });

    it('discovers @McpPrompt methods with their arguments', async () => {
      const { prompts } = await t!.result('prompts/list');
      expect(prompts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: 'summarise',
            description: 'Summarise a topic',
            arguments: [
              { name: 'topic', description: 'What to summarise', required: true },
              { name: 'tone', required: false },
            ],
          }),
          expect.objectContaining({ name: 'full_prompt' }),
        ]),
      );
    });
  });

  describe('DTO input', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [DiscoveredTools]);
    });

    it('lists a JSON Schema derived from the class-validator DTO', async () => {
      const { tools } = await t!.result('tools/list');
      const schema = tools.find((tool: any) => tool.name === 'create_note').inputSchema;
      expect(schema.type).toBe('object');
      expect(schema.additionalProperties).toBe(false);
      expect(Object.keys(schema.properties).sort()).toEqual(['body', 'priority', 'title']);
      expect(schema.properties.title).toEqual(expect.objectContaining({ type: 'string' }));
      expect(schema.properties.priority).toEqual(expect.objectContaining({ type: 'integer' }));
      expect([...schema.required].sort()).toEqual(['priority', 'title']);
    });

    it('transforms valid arguments into a DTO instance', async () => {
      const result = await t!.callTool('create_note', { title: 'Groceries', priority: 2 });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ isDto: true, title: 'Groceries', priority: 2 });
    });

    it('answers invalid arguments with an isError result naming the property', async () => {
      const result = await t!.callTool('create_note', { title: 'Groceries', priority: 0 });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toContain('priority');
      expect(result.content[0].text).not.toContain('title');
    });

    it('refuses properties the DTO does not declare', async () => {
      const result = await t!.callTool('create_note', { title: 'x', priority: 1, owner: 'eve' });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toContain('owner');
    });
  });

  describe('raw JSON Schema input and output schema', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [DiscoveredTools]);
    });

    it('lists a raw JSON Schema verbatim, including $schema, $defs and $ref', async () => {
      const { tools } = await t!.result('tools/list');
      const route = tools.find((tool: any) => tool.name === 'route');
      expect(route.inputSchema).toEqual(ROUTE_SCHEMA);
      expect(route.inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    });

    it('validates arguments against the raw schema, following $ref', async () => {
      expect(await t!.callTool('route', { from: { x: 0, y: 0 }, to: { x: 3, y: 4 } })).toEqual({
        content: [{ type: 'text', text: '5' }],
      });
      const wrong = await t!.callTool('route', { from: { x: 'zero', y: 0 }, to: { x: 3, y: 4 } });
      expect(wrong.isError).toBe(true);
    });

    it('lists the output schema and passes structuredContent that matches it', async () => {
      const { tools } = await t!.result('tools/list');
      expect(tools.find((tool: any) => tool.name === 'good_count').outputSchema).toEqual(
        COUNT_OUTPUT,
      );
      const result = await t!.callTool('good_count', {});
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ count: 3 });
    });

    it('answers structuredContent that fails the output schema with an isError result', async () => {
      const result = await t!.callTool('bad_count', {});
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
    });
  });

  describe('tool return shapes', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [ReturnShapeTools]);
    });

    it('sends a string as one text block', async () => {
      expect(await t!.callTool('as_string', {})).toEqual({
        content: [{ type: 'text', text: 'plain text' }],
      });
    });

    it('sends a content array as the content', async () => {
      expect(await t!.callTool('as_content', {})).toEqual({
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      });
    });

    it('sends a full CallToolResult as is', async () => {
      expect(await t!.callTool('as_result', {})).toEqual({
        content: [{ type: 'text', text: 'full' }],
        structuredContent: { full: true },
        isError: false,
      });
    });

    it('sends a plain object as structuredContent plus its JSON text', async () => {
      const result = await t!.callTool('as_object', {});
      expect(result.structuredContent).toEqual({ answer: 42, tags: ['a', 'b'] });
      expect(result.content).toHaveLength(1);
      expect(result.content[0].type).toBe('text');
      expect(JSON.parse(result.content[0].text)).toEqual({ answer: 42, tags: ['a', 'b'] });
      expect(result.isError).toBeFalsy();
    });
  });

  describe('resource and prompt results', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [ContentFixtures]);
    });

    it('sends a string resource as text', async () => {
      expect(await t!.result('resources/read', { uri: 'mem://text' })).toEqual({
        contents: [{ uri: 'mem://text', mimeType: 'text/plain', text: 'hello resource' }],
      });
    });

    it('sends a Uint8Array resource as a base64 blob', async () => {
      expect(await t!.result('resources/read', { uri: 'mem://bytes' })).toEqual({
        contents: [
          {
            uri: 'mem://bytes',
            mimeType: 'application/octet-stream',
            blob: Buffer.from([1, 2, 3, 250]).toString('base64'),
          },
        ],
      });
    });

    it('sends a Buffer resource as a base64 blob', async () => {
      const read = await t!.result('resources/read', { uri: 'mem://buffer' });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0]).toMatchObject({ uri: 'mem://buffer', blob: 'YnVm' });
      expect(read.contents[0].text).toBeUndefined();
    });

    it('sends a full ReadResourceResult as is', async () => {
      expect(await t!.result('resources/read', { uri: 'mem://full' })).toEqual({
        contents: [
          { uri: 'mem://full', mimeType: 'application/json', text: '{"a":1}' },
          { uri: 'mem://full#2', text: 'second part' },
        ],
      });
    });

    it('answers an unknown resource with -32002', async () => {
      const response = await t!.request('resources/read', { uri: 'mem://missing' });
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32002);
    });

    it('sends a prompt returning a messages array as the messages of the result', async () => {
      const result = await t!.result('prompts/get', {
        name: 'summarise',
        arguments: { topic: 'otters', tone: 'dry' },
      });
      expect(result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Summarise otters (dry)' } },
      ]);
    });

    it('sends a prompt returning a full GetPromptResult as is', async () => {
      expect(await t!.result('prompts/get', { name: 'full_prompt' })).toEqual({
        description: 'custom description',
        messages: [{ role: 'assistant', content: { type: 'text', text: 'ready' } }],
      });
    });

    it('answers a missing required prompt argument with -32602', async () => {
      const response = await t!.request('prompts/get', {
        name: 'summarise',
        arguments: { tone: 'dry' },
      });
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32602);
    });
  });

  describe('invalid definitions fail at boot', () => {
    it("rejects a tool named 'bad name', naming Provider.method", async () => {
      const error = await bootFailure([BadNameTools]);
      expect(error.message).toContain('BadNameTools.spaced');
      expect(error.message).toContain('bad name');
    });

    it('rejects a tool with no description, naming Provider.method', async () => {
      const error = await bootFailure([NoDescriptionTools]);
      expect(error.message).toContain('NoDescriptionTools.undescribed');
    });

    it('rejects a non-object input schema, naming Provider.method', async () => {
      const error = await bootFailure([StringInputTools]);
      expect(error.message).toContain('StringInputTools.stringy');
    });

    it('rejects duplicate tool names, naming Provider.method', async () => {
      const error = await bootFailure([DuplicateTools]);
      expect(error.message).toContain('DuplicateTools.second');
      expect(error.message).toContain('same');
    });
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
