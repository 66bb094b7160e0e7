import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type CallToolResult,
  type CreateMessageRequest,
  type ElicitRequest,
  type ElicitResult,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import {
  McpPrompt,
  McpResource,
  McpTool,
  type Authorizer,
  type McpToolContext,
  type PromptMessage,
} from '../src/index.js';
import { deferred } from './support/deferred.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from './support/http-app.js';
import { HttpServiceChild } from './support/http-service.js';
import { SseReader } from './support/http-sse.js';
import { makeDataDir, removeDataDir } from './support/stdio-child.js';

/*
 * The official SDK client (1.x) against a test app over both HTTP transports
 * (Streamable HTTP at /mcp, the deprecated HTTP+SSE pair at /sse + /messages),
 * then against the built notes service (dist/bundle/main.mjs; `npm run build`).
 */

/** Tool runs, in order, so a test can tell whether a tool body executed. */
const runs: string[] = [];

/** What `steps` waits on after its progress, so the result cannot overtake the progress. */
let stepsGate = deferred();

@Injectable()
class SdkTools {
  @McpTool({
    description: 'Echo the text back',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  echo({ text }: { text: string }) {
    return `echo: ${text}`;
  }

  @McpTool({ description: 'Report three progress steps, wait for the gate, then finish' })
  async steps(_args: object, ctx: McpToolContext) {
    for (let step = 1; step <= 3; step++) ctx.progress(step, 3, `step ${step}`);
    await stepsGate.promise;
    return 'three steps done';
  }

  @McpTool({ description: 'Log one line at each of four levels' })
  chatty(_args: object, ctx: McpToolContext) {
    ctx.log('debug', 'a debug line', 'sdk-test');
    ctx.log('info', 'an info line', 'sdk-test');
    ctx.log('warning', 'a warning line', 'sdk-test');
    ctx.log('error', { problem: 'an error object' }, 'sdk-test');
    return 'logged';
  }

  @McpTool({
    description: 'Drop the table (needs approval)',
    annotations: { destructiveHint: true },
  })
  drop_table() {
    runs.push('drop_table');
    return 'table dropped';
  }

  @McpTool({ description: 'Ask the client model for a title' })
  async entitle(_args: object, ctx: McpToolContext) {
    const result = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Title for: quarterly plan' } }],
      maxTokens: 20,
    });
    return `title: ${(result.content as { text: string }).text}`;
  }

  @McpTool({ description: 'A tool the policy refuses' })
  forbidden() {
    runs.push('forbidden');
    return 'should never run';
  }
}

@Injectable()
class SdkResources {
  @McpResource({ uri: 'docs://readme', name: 'readme', mimeType: 'text/plain' })
  readme() {
    return 'Read me first.';
  }

  @McpResource({ uri: 'vault://secrets', name: 'secrets', mimeType: 'text/plain' })
  secrets() {
    runs.push('secrets');
    return 'the launch codes';
  }
}

const NAMES = ['Alice', 'Alan', 'Bob'];

@Injectable()
class SdkPrompts {
  @McpPrompt({
    description: 'Greet someone',
    arguments: [{ name: 'who', required: true, complete: 'completeWho' }],
  })
  greeting({ who }: Record<string, string>): PromptMessage[] {
    return [{ role: 'user', content: { type: 'text', text: `Say hello to ${who}.` } }];
  }

  completeWho(value: string): string[] {
    return NAMES.filter((name) => name.startsWith(value));
  }
}

const toolPolicy: Authorizer = (name) => {
  if (name === 'drop_table') return { kind: 'ask', prompt: 'Drop the whole table?' };
  if (name === 'forbidden') return { kind: 'deny', reason: 'not_for_you' };
  return { kind: 'allow' };
};

const readPolicy: Authorizer = (method, args) =>
  method === 'resources/read' && String(args.uri).startsWith('vault://')
    ? { kind: 'deny', reason: 'vault_closed' }
    : { kind: 'allow' };

type Answer = (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

const denial = (tool: string, decision: string, detail: string) => ({
  error: 'authorization_required',
  tool,
  decision,
  detail,
});

const transports: [string, (base: string) => Transport][] = [
  ['Streamable HTTP', (base) => new StreamableHTTPClientTransport(new URL(`${base}/mcp`))],
  ['HTTP+SSE pair', (base) => new SSEClientTransport(new URL(`${base}/sse`))],
];

/** Every client transport on every adapter. */
const scenarios = ADAPTERS.flatMap((adapter) =>
  transports.map(([name, makeTransport]) => ({ adapter, name, makeTransport })),
);

describe.each(scenarios)('the SDK client over $name on $adapter', ({ adapter, makeTransport }) => {
  let t: HttpTestApp;
  let client: Client;
  const answer: { current: Answer } = { current: () => ({ action: 'decline' }) };
  const elicited: ElicitRequest[] = [];
  const sampled: CreateMessageRequest[] = [];

  beforeAll(async () => {
    t = await createHttpApp(
      {
        authorizer: toolPolicy,
        authorizerSource: 'configured',
        readAuthorizer: readPolicy,
        requireAuthorization: true,
      },
      [SdkTools, SdkResources, SdkPrompts],
      adapter,
    );
    client = new Client(
      { name: 'jest-http-sdk', version: '1.0.0' },
      { capabilities: { elicitation: {}, sampling: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicited.push(request);
      return answer.current(request);
    });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      sampled.push(request);
      return {
        role: 'assistant',
        content: { type: 'text', text: 'Q3 Plan' },
        model: 'jest-model',
        stopReason: 'endTurn',
      };
    });
    await client.connect(makeTransport(t.base));
  });

  afterAll(async () => {
    // The client first: a server closing under it would make it try to reconnect.
    await client?.close();
    await t?.close();
  });

  beforeEach(() => {
    runs.length = 0;
    elicited.length = 0;
    sampled.length = 0;
  });

  it('initializes with the server info and capabilities', () => {
    expect(client.getServerVersion()).toEqual({ name: 'http-test', version: '1.0.0' });
    expect(client.getServerCapabilities()).toEqual(
      expect.objectContaining({
        tools: expect.any(Object),
        resources: expect.any(Object),
        prompts: expect.any(Object),
        logging: expect.any(Object),
        completions: expect.any(Object),
      }),
    );
  });

  it('lists the tools the policy lets the caller see (a denied tool is hidden)', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'chatty',
      'drop_table',
      'echo',
      'entitle',
      'steps',
    ]);
  });

  it('calls a tool and gets its text result', async () => {
    const result = (await client.callTool({
      name: 'echo',
      arguments: { text: 'hi there' },
    })) as CallToolResult;
    expect(result).toEqual({ content: [{ type: 'text', text: 'echo: hi there' }] });
  });

  it('lists and reads a resource', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'docs://readme',
      'vault://secrets',
    ]);
    const read = await client.readResource({ uri: 'docs://readme' });
    expect(read.contents).toEqual([
      { uri: 'docs://readme', mimeType: 'text/plain', text: 'Read me first.' },
    ]);
  });

  it('gets a prompt with its argument', async () => {
    const prompt = await client.getPrompt({ name: 'greeting', arguments: { who: 'Bob' } });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Say hello to Bob.' } },
    ]);
  });

  it('completes a prompt argument', async () => {
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'greeting' },
      argument: { name: 'who', value: 'Al' },
    });
    expect(completion).toEqual({ values: ['Alice', 'Alan'], total: 2, hasMore: false });
  });

  it('delivers progress notifications to onprogress before the result', async () => {
    /*
     * The tool holds its result until the client has seen all three updates.
     * Without the gate, SDK 1.x drops progress that arrives in the same chunk
     * as the response (its notification handlers run a microtask later than
     * the response handler that retires the token: typescript-sdk#2580).
     */
    stepsGate = deferred();
    const progress: Progress[] = [];
    let settled = false;
    let settledAtLastStep: boolean | undefined;
    const call = client.callTool({ name: 'steps', arguments: {} }, undefined, {
      onprogress: (update) => {
        progress.push(update);
        if (update.progress !== 3) return;
        settledAtLastStep = settled;
        stepsGate.resolve();
      },
    });
    void call.finally(() => (settled = true));
    const result = (await call) as CallToolResult;
    expect(text(result)).toBe('three steps done');
    expect(settledAtLastStep).toBe(false);
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('honours setLoggingLevel: log notifications at or above the level, before the result', async () => {
    const logs: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    try {
      await client.setLoggingLevel('warning');
      expect(
        text((await client.callTool({ name: 'chatty', arguments: {} })) as CallToolResult),
      ).toBe('logged');
      expect(logs).toEqual([
        { level: 'warning', logger: 'sdk-test', data: 'a warning line' },
        { level: 'error', logger: 'sdk-test', data: { problem: 'an error object' } },
      ]);

      logs.length = 0;
      await client.setLoggingLevel('debug');
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(logs.map((log) => log.level)).toEqual(['debug', 'info', 'warning', 'error']);
    } finally {
      client.removeNotificationHandler('notifications/message');
    }
  });

  it('an ask tool elicits approval; an approval runs the tool', async () => {
    answer.current = () => ({ action: 'accept', content: { approve: true } });
    const result = (await client.callTool({ name: 'drop_table', arguments: {} })) as CallToolResult;
    expect(result).toEqual({ content: [{ type: 'text', text: 'table dropped' }] });
    expect(runs).toEqual(['drop_table']);
    expect(elicited).toHaveLength(1);
    expect(elicited[0].params).toEqual({
      message: 'Drop the whole table?',
      requestedSchema: {
        type: 'object',
        properties: {
          approve: { type: 'boolean', description: 'Approve running the drop_table tool' },
        },
        required: ['approve'],
      },
    });
  });

  it('an ask tool elicits approval; a decline denies with decision "ask"', async () => {
    answer.current = () => ({ action: 'decline' });
    const result = (await client.callTool({ name: 'drop_table', arguments: {} })) as CallToolResult;
    const expected = denial('drop_table', 'ask', 'user declined');
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result))).toEqual(expected);
    expect(result.structuredContent).toEqual(expected);
    expect(elicited).toHaveLength(1);
    expect(runs).toEqual([]);
  });

  it('a tool asks the client to sample its model (sampling/createMessage)', async () => {
    const result = (await client.callTool({ name: 'entitle', arguments: {} })) as CallToolResult;
    expect(text(result)).toBe('title: Q3 Plan');
    expect(sampled).toHaveLength(1);
    expect(sampled[0].params).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Title for: quarterly plan' } }],
      maxTokens: 20,
    });
  });

  it('a tool the policy denies returns the deny result shape and never runs', async () => {
    const result = (await client.callTool({ name: 'forbidden', arguments: {} })) as CallToolResult;
    const expected = denial('forbidden', 'deny', 'not_for_you');
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result))).toEqual(expected);
    expect(result.structuredContent).toEqual(expected);
    expect(runs).toEqual([]);
  });

  it('a read the read seam denies rejects with McpError -31403', async () => {
    const error = await client.readResource({ uri: 'vault://secrets' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-31403);
    expect((error as McpError).message).toContain('authorization_required: resources/read');
    expect((error as McpError).data).toEqual({
      error: 'authorization_required',
      method: 'resources/read',
      detail: 'vault_closed',
    });
    expect(runs).toEqual([]);
  });
});

describe('the built notes service over HTTP (dist/bundle/main.mjs)', () => {
  let dataDir: string;
  let service: HttpServiceChild;
  let client: Client | undefined;

  beforeEach(async () => {
    dataDir = await makeDataDir();
    // As deployed (NODE_ENV=production); the boot guard is armed in any environment, so the
    // service's own policy must satisfy it.
    service = new HttpServiceChild(dataDir, { NODE_ENV: 'production' });
  });

  afterEach(async () => {
    await client?.close();
    client = undefined;
    await service.dispose();
    await removeDataDir(dataDir);
  });

  it('announces its URL on stderr and serves the SDK client over Streamable HTTP', async () => {
    const url = await service.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    client = new Client({ name: 'jest-service', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(client.getServerVersion()).toEqual({ name: 'mcp-warden-notes', version: '0.1.0' });

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'create_note',
      'delete_note',
      'export_notes',
      'search_notes',
      'suggest_title',
      'tag_note',
    ]);
    const created = (await client.callTool({
      name: 'create_note',
      arguments: { title: 'HTTP heron', body: 'over the wire' },
    })) as CallToolResult;
    expect(created.isError).toBeFalsy();
    const found = (await client.callTool({
      name: 'search_notes',
      arguments: { query: 'heron' },
    })) as CallToolResult;
    expect(found.structuredContent).toMatchObject({
      count: 1,
      notes: [{ title: 'HTTP heron', body: 'over the wire' }],
    });
  });

  it('GET /health answers {"status":"ok"}', async () => {
    const url = new URL(await service.url);
    const response = await fetch(`${url.origin}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('SIGTERM ends open streams gracefully and exits with code 0', async () => {
    const url = await service.url;
    const init = await fetch(url, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'jest', version: '1.0.0' },
        },
      }),
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.json();
    const stream = new SseReader(
      await fetch(url, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId },
      }),
    );
    await stream.at(0); // the priming event: the stream is open

    service.process.kill('SIGTERM');
    // The app closes (the session's stream is ended properly, not cut off), then exits 0.
    expect(await stream.ended).toEqual({});
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(service.stderr.text).not.toMatch(/error/i);
  });
});
