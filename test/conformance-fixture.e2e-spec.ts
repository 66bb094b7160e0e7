import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/core';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { crc32, inflateSync } from 'node:zlib';
import { filter, firstValueFrom, type Observable, type Subscription } from 'rxjs';
import { McpServer, relatedRequestOf } from '../src/index.js';
import { ConformanceModule } from './fixtures/conformance/conformance.module.js';
import { PNG_BASE64, WAV_BASE64 } from './fixtures/conformance/conformance.media.js';

/*
 * The conformance fixture app, driven through McpServer.handleMessage. The
 * official suite's checks are shallow (reference/conformance.md §3); these
 * assert every payload exactly, so a fixture cannot drift while the suite
 * still passes.
 */

type Msg = Record<string, any>;

/* What the conformance suite's client declares at initialize. */
const SUITE_CAPABILITIES = { sampling: {}, elicitation: {} };

const NO_INPUT = { type: 'object', additionalProperties: false };

const TOOL_DESCRIPTIONS: Record<string, string> = {
  test_simple_text: 'Returns a single text content block.',
  test_image_content: 'Returns a 1x1 PNG image content block.',
  test_audio_content: 'Returns a tiny WAV audio content block.',
  test_embedded_resource: 'Returns an embedded text resource.',
  test_multiple_content_types: 'Returns text, image and embedded resource content together.',
  test_tool_with_logging: 'Sends three info log messages about 50 ms apart while it runs.',
  test_error_handling: 'Always fails: returns a tool result with isError set.',
  test_tool_with_progress: 'Reports progress 0, 50 and 100 of 100, about 50 ms apart.',
  test_sampling: "Asks the client's model to answer a prompt (sampling/createMessage).",
  test_elicitation: 'Asks the user for a username and an e-mail address (elicitation/create).',
  test_elicitation_sep1034_defaults:
    'Elicits a form whose string, integer, number, enum and boolean fields have defaults.',
  test_elicitation_sep1330_enums:
    'Elicits a form with untitled, titled and legacy single- and multi-select enums.',
  json_schema_2020_12_tool:
    'Takes input described by a JSON Schema 2020-12 document with $defs and $ref.',
  test_reconnection: 'Answers after a short delay (the SSE reconnection scenario calls it).',
};

const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
  additionalProperties: false,
};

const SEP1034_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
};

const SEP1330_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: {
      type: 'string',
      description: 'Select one option',
      enum: ['option1', 'option2', 'option3'],
    },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy enumNames)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select several options',
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select several options with titles',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/* ------------------------------------------------------------------ helpers */

let app: INestApplication;
let server: McpServer;
let connections = 0;
const open: Subscription[] = [];

/** A connection that declared `capabilities`, initialized, and recording what it receives. */
async function connect(capabilities: object = SUITE_CAPABILITIES) {
  const connId = `conformance-${++connections}`;
  const outbound = server.subscribe(connId) as Observable<Msg>;
  const received: Msg[] = [];
  open.push(outbound.subscribe((message) => received.push(message)));
  let nextId = 1;

  const send = (message: object) => server.handleMessage(message, connId) as Promise<Msg | null>;
  const message = (method: string, params?: object) => {
    const request: Msg = { jsonrpc: '2.0', id: nextId++, method };
    if (params !== undefined) request.params = params;
    return request;
  };
  const client = {
    connId,
    received,
    send,
    message,
    /** The first outbound message from now on that matches `predicate`. */
    next: (predicate: (m: Msg) => boolean) => firstValueFrom(outbound.pipe(filter(predicate))),
    request: (method: string, params?: object) => send(message(method, params)),
    async result(method: string, params?: object): Promise<any> {
      const response = await send(message(method, params));
      if (!response || response.error) {
        throw new Error(`${method}: ${JSON.stringify(response?.error ?? response)}`);
      }
      return response.result;
    },
    callTool: (name: string, args?: object) =>
      client.result('tools/call', args === undefined ? { name } : { name, arguments: args }),
    /** Answers the server request `request` with `result`. */
    answer: (request: Msg, result: object) => send({ jsonrpc: '2.0', id: request.id, result }),
    notificationsOf: (method: string) =>
      received.filter((m) => m.method === method && m.id === undefined),
    initializeResult: undefined as any,
  };
  client.initializeResult = await client.result('initialize', {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'conformance-test-client', version: '1.0.0' },
  });
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return client;
}

type Client = Awaited<ReturnType<typeof connect>>;

const isRequest = (method: string) => (m: Msg) => m.method === method && m.id !== undefined;

/** Starts `tools/call name` and returns the server request it makes, and the pending call. */
async function callAndCatch(c: Client, name: string, args: object, method: string) {
  const asked = c.next(isRequest(method));
  const call = c.message('tools/call', { name, arguments: args });
  const pending = c.send(call);
  const request = await asked;
  return { request, pending, callId: call.id };
}

/** The chunks of a PNG file after its signature, with their CRCs checked. */
function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  const found: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const typeAndData = png.subarray(at + 4, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(typeAndData));
    found.push({ type: typeAndData.toString('latin1', 0, 4), data: typeAndData.subarray(4) });
    at += 12 + length;
  }
  return found;
}

/** The sub-chunks of a RIFF/WAVE file after its 12-byte header. */
function wavChunks(wav: Buffer): { id: string; data: Buffer }[] {
  const found: { id: string; data: Buffer }[] = [];
  for (let at = 12; at < wav.length;) {
    const size = wav.readUInt32LE(at + 4);
    found.push({
      id: wav.toString('latin1', at, at + 4),
      data: wav.subarray(at + 8, at + 8 + size),
    });
    at += 8 + size + (size % 2);
  }
  return found;
}

/* ------------------------------------------------------------------- suite */

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [ConformanceModule.forRoot()],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.init(); // not listening: the server is driven through handleMessage
  server = app.get(McpServer);
});

afterEach(() => {
  for (const subscription of open.splice(0)) subscription.unsubscribe();
});

afterAll(() => app.close());

describe('conformance fixture: lifecycle and utilities', () => {
  it('announces the fixture server and every capability the suite uses', async () => {
    const c = await connect();
    expect(c.initializeResult).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
      },
      serverInfo: { name: 'mcp-warden-conformance', version: '0.1.0' },
    });
  });

  it('answers ping and logging/setLevel with empty results', async () => {
    const c = await connect();
    expect(await c.result('ping')).toEqual({});
    expect(await c.result('logging/setLevel', { level: 'info' })).toEqual({});
  });

  it('completes arg1 of test_prompt_with_arguments by prefix', async () => {
    const c = await connect();
    const complete = (name: string, value: string) =>
      c.result('completion/complete', {
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name, value },
      });
    expect(await complete('arg1', 'test')).toEqual({
      completion: {
        values: ['testValue1', 'testValue2', 'testValue3'],
        total: 3,
        hasMore: false,
      },
    });
    expect((await complete('arg1', '')).completion.values).toEqual([
      'testValue1',
      'testValue2',
      'testValue3',
      'sampleValue',
    ]);
    expect(await complete('arg2', 'test')).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
  });
});

describe('conformance fixture: tools', () => {
  it('lists exactly the suite tools, each with its description and input schema', async () => {
    const c = await connect();
    const { tools } = await c.result('tools/list');
    const byName = Object.fromEntries(tools.map((tool: Msg) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(Object.keys(TOOL_DESCRIPTIONS).sort());
    expect(tools).toHaveLength(14);
    for (const tool of tools) {
      expect(tool.description).toBe(TOOL_DESCRIPTIONS[tool.name]);
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(byName.test_sampling.inputSchema).toEqual({
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'The prompt to send to the client model' },
      },
      required: ['prompt'],
    });
    expect(byName.test_elicitation.inputSchema).toEqual({
      type: 'object',
      properties: { message: { type: 'string', description: 'The message to show the user' } },
      required: ['message'],
    });
    const withoutInput = Object.keys(TOOL_DESCRIPTIONS).filter(
      (name) => !['test_sampling', 'test_elicitation', 'json_schema_2020_12_tool'].includes(name),
    );
    for (const name of withoutInput) expect(byName[name].inputSchema).toEqual(NO_INPUT);
  });

  it('lists json_schema_2020_12_tool with its 2020-12 input schema verbatim', async () => {
    const c = await connect();
    const { tools } = await c.result('tools/list');
    const tool = tools.find((t: Msg) => t.name === 'json_schema_2020_12_tool');
    expect(tool.inputSchema).toEqual(JSON_SCHEMA_2020_12);
    expect(Object.keys(tool.inputSchema)).toEqual([
      '$schema',
      'type',
      '$defs',
      'properties',
      'additionalProperties',
    ]);
  });

  it('json_schema_2020_12_tool validates its arguments against that schema', async () => {
    const c = await connect();
    const args = { name: 'Ada', address: { street: '1 Main St', city: 'London' } };
    expect(await c.callTool('json_schema_2020_12_tool', args)).toEqual(
      text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
    );
    const extra = await c.callTool('json_schema_2020_12_tool', { name: 'Ada', age: 3 });
    expect(extra.isError).toBe(true);
    expect(extra.content[0].text).toMatch(/^Invalid arguments for tool json_schema_2020_12_tool/);
    const badRef = await c.callTool('json_schema_2020_12_tool', { address: { city: 7 } });
    expect(badRef.isError).toBe(true);
    expect(badRef.content[0].text).toContain('/address/city');
  });

  it('test_simple_text answers a call that has no arguments field', async () => {
    const c = await connect();
    expect(await c.callTool('test_simple_text')).toEqual(
      text('This is a simple text response for testing.'),
    );
  });

  it('test_image_content returns a valid 1x1 PNG', async () => {
    const c = await connect();
    expect(await c.callTool('test_image_content', {})).toEqual({
      content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }],
    });
    const png = Buffer.from(PNG_BASE64, 'base64');
    expect(png.toString('base64')).toBe(PNG_BASE64);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const [ihdr, idat, iend] = pngChunks(png);
    expect([ihdr.type, idat.type, iend.type]).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(ihdr.data.readUInt32BE(0)).toBe(1); // width
    expect(ihdr.data.readUInt32BE(4)).toBe(1); // height
    expect([ihdr.data[8], ihdr.data[9]]).toEqual([8, 6]); // 8-bit RGBA
    expect(inflateSync(idat.data)).toHaveLength(1 + 4); // one filter byte + one RGBA pixel
    expect(iend.data).toHaveLength(0);
  });

  it('test_audio_content returns a valid WAV with mimeType audio/wav', async () => {
    const c = await connect();
    expect(await c.callTool('test_audio_content', {})).toEqual({
      content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }],
    });
    const wav = Buffer.from(WAV_BASE64, 'base64');
    expect(wav.toString('base64')).toBe(WAV_BASE64);
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('latin1', 8, 12)).toBe('WAVE');
    const [fmt, data] = wavChunks(wav);
    expect([fmt.id, data.id]).toEqual(['fmt ', 'data']);
    expect(fmt.data).toHaveLength(16);
    expect(fmt.data.readUInt16LE(0)).toBe(1); // PCM
    const [channels, rate, bits] = [
      fmt.data.readUInt16LE(2),
      fmt.data.readUInt32LE(4),
      fmt.data.readUInt16LE(14),
    ];
    expect(fmt.data.readUInt32LE(8)).toBe((rate * channels * bits) / 8); // byte rate
    expect(fmt.data.readUInt16LE(12)).toBe((channels * bits) / 8); // block align
    expect(data.data.length).toBeGreaterThan(0);
    expect(data.data.length % ((channels * bits) / 8)).toBe(0);
    expect(12 + 8 + fmt.data.length + 8 + data.data.length).toBe(wav.length);
  });

  it('test_embedded_resource returns an embedded text resource', async () => {
    const c = await connect();
    expect(await c.callTool('test_embedded_resource', {})).toEqual({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    });
  });

  it('test_multiple_content_types returns text, image and resource', async () => {
    const c = await connect();
    expect(await c.callTool('test_multiple_content_types', {})).toEqual({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: '{"test":"data","value":123}',
          },
        },
      ],
    });
  });

  it('test_tool_with_logging sends three info messages tied to the call, before its result', async () => {
    const c = await connect();
    expect(await c.result('logging/setLevel', { level: 'debug' })).toEqual({});
    const call = c.message('tools/call', { name: 'test_tool_with_logging', arguments: {} });
    const response = await c.send(call);
    // Everything the call logged was pushed before its response resolved.
    const logs = c.notificationsOf('notifications/message');
    expect(logs).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'Tool execution started' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'Tool processing data' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'Tool execution completed' },
      },
    ]);
    for (const log of logs) expect(relatedRequestOf(log)).toBe(call.id);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: call.id,
      result: text('Tool with logging executed successfully'),
    });
  });

  it('test_tool_with_logging stays silent above its level', async () => {
    const c = await connect();
    await c.result('logging/setLevel', { level: 'warning' });
    expect(await c.callTool('test_tool_with_logging', {})).toEqual(
      text('Tool with logging executed successfully'),
    );
    expect(c.notificationsOf('notifications/message')).toEqual([]);
  });

  it('test_tool_with_logging stops at once when the call is cancelled', async () => {
    const c = await connect();
    const started = c.next((m) => m.method === 'notifications/message');
    const call = c.message('tools/call', { name: 'test_tool_with_logging', arguments: {} });
    const pending = c.send(call);
    await started;
    await c.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: call.id, reason: 'test' },
    });
    // The abortable pause ends the tool: no response, and no later log line was sent.
    expect(await pending).toBeNull();
    expect(c.notificationsOf('notifications/message').map((m) => m.params.data)).toEqual([
      'Tool execution started',
    ]);
    expect(c.received.filter((m) => m.id === call.id)).toEqual([]);
  });

  it('test_error_handling returns an isError result, not a JSON-RPC error', async () => {
    const c = await connect();
    const call = c.message('tools/call', { name: 'test_error_handling', arguments: {} });
    expect(await c.send(call)).toEqual({
      jsonrpc: '2.0',
      id: call.id,
      result: {
        content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
        isError: true,
      },
    });
  });

  it('test_tool_with_progress reports 0, 50 and 100 of 100 for the token', async () => {
    const c = await connect();
    const call = c.message('tools/call', {
      name: 'test_tool_with_progress',
      arguments: {},
      _meta: { progressToken: 'progress-test-1' },
    });
    const response = await c.send(call);
    const progress = c.notificationsOf('notifications/progress');
    expect(progress.map((m) => m.params)).toEqual([
      { progressToken: 'progress-test-1', progress: 0, total: 100 },
      { progressToken: 'progress-test-1', progress: 50, total: 100 },
      { progressToken: 'progress-test-1', progress: 100, total: 100 },
    ]);
    for (const m of progress) expect(relatedRequestOf(m)).toBe(call.id);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: call.id,
      result: text('Progress test completed'),
    });
  });

  it('test_tool_with_progress sends no progress without a token', async () => {
    const c = await connect();
    expect(await c.callTool('test_tool_with_progress', {})).toEqual(
      text('Progress test completed'),
    );
    expect(c.notificationsOf('notifications/progress')).toEqual([]);
  });

  it('test_sampling round-trips sampling/createMessage on the caller connection', async () => {
    const c = await connect();
    const other = await connect();
    const { request, pending, callId } = await callAndCatch(
      c,
      'test_sampling',
      { prompt: 'Test prompt for sampling' },
      'sampling/createMessage',
    );
    expect(request).toEqual({
      jsonrpc: '2.0',
      id: expect.any(String),
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt for sampling' } }],
        maxTokens: 100,
      },
    });
    expect(relatedRequestOf(request)).toBe(callId);
    expect(other.received).toEqual([]);
    expect(
      await c.answer(request, {
        role: 'assistant',
        content: { type: 'text', text: 'This is a test response from the client' },
        model: 'test-model',
        stopReason: 'endTurn',
      }),
    ).toBeNull();
    expect(await pending).toEqual({
      jsonrpc: '2.0',
      id: callId,
      result: text('LLM response: This is a test response from the client'),
    });
  });

  it('test_sampling needs the prompt argument and the sampling capability', async () => {
    const c = await connect({ elicitation: {} });
    const missing = await c.callTool('test_sampling', {});
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toMatch(/^Invalid arguments for tool test_sampling: .*prompt/);
    expect(await c.callTool('test_sampling', { prompt: 'hi' })).toEqual({
      content: [{ type: 'text', text: 'The client did not declare the sampling capability' }],
      isError: true,
    });
    expect(c.received).toEqual([]);
  });
});

describe('conformance fixture: elicitation tools', () => {
  it('test_elicitation asks for username and email and reports the answer', async () => {
    const c = await connect();
    const { request, pending, callId } = await callAndCatch(
      c,
      'test_elicitation',
      { message: 'Please provide your information' },
      'elicitation/create',
    );
    expect(request).toEqual({
      jsonrpc: '2.0',
      id: expect.any(String),
      method: 'elicitation/create',
      params: {
        message: 'Please provide your information',
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "The user's name" },
            email: { type: 'string', description: "The user's e-mail address" },
          },
          required: ['username', 'email'],
        },
      },
    });
    expect(relatedRequestOf(request)).toBe(callId);
    await c.answer(request, {
      action: 'accept',
      content: { username: 'testuser', email: 'test@example.com' },
    });
    expect((await pending)!.result).toEqual(
      text(
        'User response: action=accept, content={"username":"testuser","email":"test@example.com"}',
      ),
    );
  });

  it.each(['decline', 'cancel'])('test_elicitation reports a %s', async (action) => {
    const c = await connect();
    const { request, pending } = await callAndCatch(
      c,
      'test_elicitation',
      { message: 'Who are you?' },
      'elicitation/create',
    );
    expect(request.params.message).toBe('Who are you?');
    await c.answer(request, { action });
    expect((await pending)!.result).toEqual(text(`User response: action=${action}`));
  });

  it('test_elicitation_sep1034_defaults sends a default for every primitive type', async () => {
    const c = await connect();
    const { request, pending } = await callAndCatch(
      c,
      'test_elicitation_sep1034_defaults',
      {},
      'elicitation/create',
    );
    expect(request.params).toEqual({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: SEP1034_SCHEMA,
    });
    expect(ElicitRequestFormParamsSchema.safeParse(request.params).success).toBe(true);
    const content = { name: 'Jane Smith', age: 25, score: 88, status: 'inactive', verified: false };
    await c.answer(request, { action: 'accept', content });
    expect((await pending)!.result).toEqual(
      text(`User response: action=accept, content=${JSON.stringify(content)}`),
    );
  });

  it('test_elicitation_sep1330_enums sends every enum variant', async () => {
    const c = await connect();
    const { request, pending } = await callAndCatch(
      c,
      'test_elicitation_sep1330_enums',
      {},
      'elicitation/create',
    );
    expect(request.params).toEqual({
      message: 'Please select options from the enum fields',
      requestedSchema: SEP1330_SCHEMA,
    });
    expect(ElicitRequestFormParamsSchema.safeParse(request.params).success).toBe(true);
    // The suite's own shape checks, stated directly.
    const p = request.params.requestedSchema.properties;
    expect(p.untitledSingle).not.toHaveProperty('oneOf');
    expect(p.untitledSingle).not.toHaveProperty('enumNames');
    expect(p.titledSingle).not.toHaveProperty('enum');
    expect(p.legacyEnum.enumNames).toHaveLength(p.legacyEnum.enum.length);
    expect(p.untitledMulti.items).not.toHaveProperty('anyOf');
    expect(p.titledMulti.items).not.toHaveProperty('enum');
    const content = {
      untitledSingle: 'option1',
      titledSingle: 'value2',
      legacyEnum: 'opt3',
      untitledMulti: ['option1', 'option3'],
      titledMulti: ['value1'],
    };
    await c.answer(request, { action: 'accept', content });
    expect((await pending)!.result).toEqual(
      text(`User response: action=accept, content=${JSON.stringify(content)}`),
    );
  });
});

describe('conformance fixture: test_reconnection', () => {
  it('answers after its pause', async () => {
    const c = await connect();
    expect(await c.callTool('test_reconnection', {})).toEqual(text('Reconnection test completed'));
  });
});

describe('conformance fixture: resources', () => {
  it('lists the static resources and the template', async () => {
    const c = await connect();
    expect(await c.result('resources/list')).toEqual({
      resources: [
        {
          uri: 'test://static-text',
          name: 'static_text',
          description: 'A static text resource.',
          mimeType: 'text/plain',
        },
        {
          uri: 'test://static-binary',
          name: 'static_binary',
          description: 'A static binary resource (a 1x1 PNG).',
          mimeType: 'image/png',
        },
        {
          uri: 'test://watched-resource',
          name: 'watched_resource',
          description: 'A resource clients may subscribe to.',
          mimeType: 'text/plain',
        },
      ],
    });
    expect(await c.result('resources/templates/list')).toEqual({
      resourceTemplates: [
        {
          uriTemplate: 'test://template/{id}/data',
          name: 'template_data',
          description: 'A JSON document for any id.',
          mimeType: 'application/json',
        },
      ],
    });
  });

  it('reads test://static-text', async () => {
    const c = await connect();
    expect(await c.result('resources/read', { uri: 'test://static-text' })).toEqual({
      contents: [
        {
          uri: 'test://static-text',
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    });
  });

  it('reads test://static-binary as a PNG blob', async () => {
    const c = await connect();
    expect(await c.result('resources/read', { uri: 'test://static-binary' })).toEqual({
      contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_BASE64 }],
    });
  });

  it('reads the template for id 123', async () => {
    const c = await connect();
    const result = await c.result('resources/read', { uri: 'test://template/123/data' });
    expect(result).toEqual({
      contents: [
        {
          uri: 'test://template/123/data',
          mimeType: 'application/json',
          text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
        },
      ],
    });
    expect(JSON.parse(result.contents[0].text)).toEqual({
      id: '123',
      templateTest: true,
      data: 'Data for ID: 123',
    });
  });

  it('test://watched-resource can be read, subscribed to and unsubscribed from', async () => {
    const c = await connect();
    const uri = 'test://watched-resource';
    expect(await c.result('resources/read', { uri })).toEqual({
      contents: [
        {
          uri,
          mimeType: 'text/plain',
          text: 'This resource is watched: subscribe to hear about its updates.',
        },
      ],
    });
    expect(await c.result('resources/subscribe', { uri })).toEqual({});
    const updated = c.next((m) => m.method === 'notifications/resources/updated');
    server.notify('notifications/resources/updated', { uri });
    expect((await updated).params).toEqual({ uri });
    expect(await c.result('resources/unsubscribe', { uri })).toEqual({});
    server.notify('notifications/resources/updated', { uri });
    expect(c.notificationsOf('notifications/resources/updated')).toHaveLength(1);
  });
});

describe('conformance fixture: prompts', () => {
  it('lists the four prompts with descriptions and arguments', async () => {
    const c = await connect();
    expect(await c.result('prompts/list')).toEqual({
      prompts: [
        { name: 'test_simple_prompt', description: 'A prompt with no arguments.' },
        {
          name: 'test_prompt_with_arguments',
          description: 'A prompt with two required arguments.',
          arguments: [
            { name: 'arg1', description: 'First test argument', required: true },
            { name: 'arg2', description: 'Second test argument', required: true },
          ],
        },
        {
          name: 'test_prompt_with_embedded_resource',
          description: 'A prompt that embeds the resource it is given.',
          arguments: [
            { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
          ],
        },
        { name: 'test_prompt_with_image', description: 'A prompt with an image.' },
      ],
    });
  });

  it('gets test_simple_prompt', async () => {
    const c = await connect();
    expect(await c.result('prompts/get', { name: 'test_simple_prompt' })).toEqual({
      description: 'A prompt with no arguments.',
      messages: [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ],
    });
  });

  it('gets test_prompt_with_arguments, and refuses it without arg2', async () => {
    const c = await connect();
    const args = { arg1: 'testValue1', arg2: 'testValue2' };
    expect(
      await c.result('prompts/get', { name: 'test_prompt_with_arguments', arguments: args }),
    ).toEqual({
      description: 'A prompt with two required arguments.',
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'",
          },
        },
      ],
    });
    const missing = await c.request('prompts/get', {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'x' },
    });
    expect(missing!.error).toMatchObject({
      code: -32602,
      message: 'Missing required arguments for prompt test_prompt_with_arguments: arg2',
    });
  });

  it('gets test_prompt_with_embedded_resource with the given URI', async () => {
    const c = await connect();
    const result = await c.result('prompts/get', {
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect(result).toEqual({
      description: 'A prompt that embeds the resource it is given.',
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: 'test://example-resource',
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        {
          role: 'user',
          content: { type: 'text', text: 'Please process the embedded resource above.' },
        },
      ],
    });
  });

  it('gets test_prompt_with_image', async () => {
    const c = await connect();
    expect(await c.result('prompts/get', { name: 'test_prompt_with_image' })).toEqual({
      description: 'A prompt with an image.',
      messages: [
        { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    });
  });
});
