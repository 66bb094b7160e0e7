import { Injectable } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import {
  McpPrompt,
  McpRegistry,
  McpResource,
  McpResourceTemplate,
  McpTool,
  type McpServer,
  type McpToolContext,
} from '../src/index.js';
import { createMcpApp, type McpTestApp } from './support/mcp-test-app.js';

/* ------------------------------------------------------------------ helpers */

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Subscribes once to a connection's outbound channel and records every message. */
function listen(server: McpServer, connId: string) {
  const messages: any[] = [];
  const subscription: Subscription = server
    .subscribe(connId)
    .subscribe((message) => messages.push(message));
  return {
    messages,
    subscription,
    ofMethod: (method: string) => messages.filter((m) => m.method === method),
  };
}

const OBJECT_SCHEMA = { type: 'object' } as const;

/* ----------------------------------------------------------------- fixtures */

@Injectable()
class BasicTools {
  @McpTool({
    description: 'Echo text',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  echo({ text }: { text: string }) {
    return `echo: ${text}`;
  }
}

@Injectable()
class ContentFixtures {
  @McpResource({ uri: 'notes://index', description: 'Index of notes', mimeType: 'text/plain' })
  index() {
    return 'index';
  }

  @McpResource({ uri: 'notes://other', mimeType: 'text/plain' })
  other() {
    return 'other';
  }

  @McpPrompt({ description: 'Summarise', arguments: [{ name: 'topic', required: true }] })
  summarise({ topic }: Record<string, string>) {
    return [{ role: 'user', content: { type: 'text', text: `Summarise ${topic}` } }];
  }
}

@Injectable()
class WaitingTools {
  readonly started = deferred<AbortSignal>();

  @McpTool({ description: 'Waits until cancelled', input: OBJECT_SCHEMA })
  wait(_args: object, ctx: McpToolContext) {
    this.started.resolve(ctx.signal);
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
  }
}

@Injectable()
class ProgressTools {
  context?: McpToolContext;

  @McpTool({ description: 'Reports progress', input: OBJECT_SCHEMA })
  work(_args: object, ctx: McpToolContext) {
    this.context = ctx;
    ctx.progress(1, 3);
    ctx.progress(1, 3);
    ctx.progress(2, 3);
    return 'worked';
  }

  @McpTool({ description: 'Logs at every level', input: OBJECT_SCHEMA })
  chatty(_args: object, ctx: McpToolContext) {
    ctx.log('debug', 'd');
    ctx.log('info', 'i');
    ctx.log('warning', 'w');
    ctx.log('error', 'e');
    return 'logged';
  }
}

const many = Array.from({ length: 150 }, (_, i) => `item-${String(i).padStart(3, '0')}`);

@Injectable()
class CompletionFixtures {
  @McpPrompt({
    description: 'Greets in a language',
    arguments: [
      { name: 'lang', complete: (value) => ['en', 'es', 'fr'].filter((l) => l.startsWith(value)) },
      { name: 'name' },
    ],
  })
  greet() {
    return [{ role: 'user', content: { type: 'text', text: 'hi' } }];
  }

  @McpPrompt({ description: 'Many choices', arguments: [{ name: 'pick', complete: () => many }] })
  choose() {
    return [{ role: 'user', content: { type: 'text', text: 'pick' } }];
  }

  @McpResourceTemplate({
    uriTemplate: 'notes://{id}',
    complete: { id: (value) => ['alpha', 'beta', 'alpine'].filter((v) => v.startsWith(value)) },
  })
  note(_uri: string, { id }: Record<string, string>) {
    return `note ${id}`;
  }

  @McpTool({
    description: 'Weather for a city',
    input: { type: 'object', properties: { city: { type: 'string' } } },
    completions: {
      city: (value) => ['Paris', 'Prague', 'Porto'].filter((c) => c.startsWith(value)),
    },
  })
  weather() {
    return 'sunny';
  }
}

/* -------------------------------------------------------------------- tests */

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

  describe('logging/setLevel', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [ProgressTools]);
    });

    it('accepts a valid level with an empty result', async () => {
      expect(await t!.result('logging/setLevel', { level: 'warning' })).toEqual({});
    });

    it('answers an invalid level with -32602', async () => {
      const response = await t!.request('logging/setLevel', { level: 'loud' });
      expect(response.error.code).toBe(-32602);
    });

    it('filters ctx.log by the level the connection set', async () => {
      const out = listen(t!.server, 'logs');
      await t!.initialize('logs');
      await t!.result('logging/setLevel', { level: 'warning' }, 'logs');
      await t!.callTool('chatty', {}, 'logs');
      expect(out.ofMethod('notifications/message').map((m) => m.params)).toEqual([
        { level: 'warning', data: 'w' },
        { level: 'error', data: 'e' },
      ]);

      out.messages.length = 0;
      await t!.result('logging/setLevel', { level: 'debug' }, 'logs');
      await t!.callTool('chatty', {}, 'logs');
      expect(out.ofMethod('notifications/message').map((m) => m.params.level)).toEqual([
        'debug',
        'info',
        'warning',
        'error',
      ]);
      out.subscription.unsubscribe();
    });
  });

  describe('cancellation', () => {
    it('aborts the signal and resolves the cancelled request with null', async () => {
      t = await createMcpApp({}, [WaitingTools]);
      const tools = t.app.get(WaitingTools);
      const out = listen(t.server, 'c1');
      await t.initialize('c1');

      const pending = t.server.handleMessage(
        { jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { name: 'wait' } },
        'c1',
      );
      const signal = await tools.started.promise;
      expect(signal.aborted).toBe(false);

      const ack = await t.server.handleMessage(
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'call-1', reason: 'user hit stop' },
        },
        'c1',
      );
      expect(ack).toBeNull();
      expect(await pending).toBeNull();
      expect(signal.aborted).toBe(true);
      // No response for the cancelled request is pushed on the channel either.
      expect(out.messages.filter((m) => m.id === 'call-1')).toEqual([]);
      out.subscription.unsubscribe();
    });
  });

  describe('progress', () => {
    it('sends increasing progress with the token to the caller before the response, none after', async () => {
      t = await createMcpApp({}, [ProgressTools]);
      const tools = t.app.get(ProgressTools);
      const timeline: any[] = [];
      const caller = t.server.subscribe('caller').subscribe((m) => timeline.push(m));
      const bystander = listen(t.server, 'bystander');
      await t.initialize('caller');
      await t.initialize('bystander');

      const response: any = await t.server.handleMessage(
        {
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'work', arguments: {}, _meta: { progressToken: 'tok-1' } },
        },
        'caller',
      );
      timeline.push({ response });

      expect(timeline).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 1, total: 3 },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 2, total: 3 },
        },
        {
          response: {
            jsonrpc: '2.0',
            id: 5,
            result: { content: [{ type: 'text', text: 'worked' }] },
          },
        },
      ]);

      // After the response, progress from the same context is dropped.
      tools.context!.progress(3, 3);
      expect(timeline).toHaveLength(3);
      expect(bystander.ofMethod('notifications/progress')).toEqual([]);
      caller.unsubscribe();
      bystander.subscription.unsubscribe();
    });
  });

  describe('notify()', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [ContentFixtures, BasicTools]);
    });

    it('delivers list_changed to every subscribed connection', async () => {
      const a = listen(t!.server, 'a');
      const b = listen(t!.server, 'b');
      t!.server.notify('notifications/tools/list_changed');
      expect(a.ofMethod('notifications/tools/list_changed')).toHaveLength(1);
      expect(b.ofMethod('notifications/tools/list_changed')).toHaveLength(1);
      a.subscription.unsubscribe();
      b.subscription.unsubscribe();
    });

    it('delivers resources/updated only to connections subscribed to that uri, not after unsubscribe', async () => {
      const a = listen(t!.server, 'a');
      const b = listen(t!.server, 'b');
      await t!.initialize('a');
      await t!.initialize('b');
      expect(await t!.result('resources/subscribe', { uri: 'notes://index' }, 'a')).toEqual({});
      await t!.result('resources/subscribe', { uri: 'notes://other' }, 'b');

      t!.server.notify('notifications/resources/updated', { uri: 'notes://index' });
      expect(a.ofMethod('notifications/resources/updated')).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/resources/updated',
          params: { uri: 'notes://index' },
        },
      ]);
      expect(b.ofMethod('notifications/resources/updated')).toEqual([]);

      expect(await t!.result('resources/unsubscribe', { uri: 'notes://index' }, 'a')).toEqual({});
      t!.server.notify('notifications/resources/updated', { uri: 'notes://index' });
      expect(a.ofMethod('notifications/resources/updated')).toHaveLength(1);
      expect(b.ofMethod('notifications/resources/updated')).toEqual([]);
      a.subscription.unsubscribe();
      b.subscription.unsubscribe();
    });

    it('emits notifications/tools/list_changed when a tool is registered at runtime', async () => {
      const a = listen(t!.server, 'a');
      t!.app.get(McpRegistry).registerTool({
        name: 'late_tool',
        description: 'Registered after boot',
        inputSchema: OBJECT_SCHEMA,
        handler: () => 'late',
      });
      expect(a.messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
      a.subscription.unsubscribe();
    });

    it('drops resource subscriptions when the outbound Observable is unsubscribed', async () => {
      const first = listen(t!.server, 'a');
      await t!.initialize('a');
      await t!.result('resources/subscribe', { uri: 'notes://index' }, 'a');
      t!.server.notify('notifications/resources/updated', { uri: 'notes://index' });
      expect(first.ofMethod('notifications/resources/updated')).toHaveLength(1);
      first.subscription.unsubscribe();

      const second = listen(t!.server, 'a');
      t!.server.notify('notifications/resources/updated', { uri: 'notes://index' });
      expect(second.ofMethod('notifications/resources/updated')).toEqual([]);
      expect(first.ofMethod('notifications/resources/updated')).toHaveLength(1);
      // The new channel is live: a list change still reaches it.
      t!.server.notify('notifications/resources/list_changed');
      expect(second.ofMethod('notifications/resources/list_changed')).toHaveLength(1);
      second.subscription.unsubscribe();
    });
  });

  describe('completion/complete', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [CompletionFixtures]);
    });

    const complete = (ref: object, name: string, value: string) =>
      t!.request('completion/complete', { ref, argument: { name, value } });

    it('completes a prompt argument with its completer', async () => {
      const response = await complete({ type: 'ref/prompt', name: 'greet' }, 'lang', 'e');
      expect(response.result.completion).toEqual({
        values: ['en', 'es'],
        total: 2,
        hasMore: false,
      });
    });

    it('completes a resource template variable with its completer', async () => {
      const response = await complete({ type: 'ref/resource', uri: 'notes://{id}' }, 'id', 'al');
      expect(response.result.completion.values).toEqual(['alpha', 'alpine']);
    });

    it('completes a tool argument with a ref/tool completer', async () => {
      const response = await complete({ type: 'ref/tool', name: 'weather' }, 'city', 'Pr');
      expect(response.result.completion.values).toEqual(['Prague']);
    });

    it('caps 150 matches at 100 values with total 150 and hasMore true', async () => {
      const response = await complete({ type: 'ref/prompt', name: 'choose' }, 'pick', '');
      const { completion } = response.result;
      expect(completion.values).toEqual(many.slice(0, 100));
      expect(completion.total).toBe(150);
      expect(completion.hasMore).toBe(true);
    });

    it('answers an unknown prompt with -32602', async () => {
      const response = await complete({ type: 'ref/prompt', name: 'nope' }, 'lang', 'e');
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32602);
    });

    it('answers an argument with no completer with empty values', async () => {
      const response = await complete({ type: 'ref/prompt', name: 'greet' }, 'name', 'Jo');
      expect(response.error).toBeUndefined();
      expect(response.result.completion.values).toEqual([]);
    });
  });
});
