import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { crc32 } from 'node:zlib';
import { type Subscription } from 'rxjs';
import { McpServer } from '../../src/index.js';
import { ConformanceModule } from '../fixtures/conformance/conformance.module.js';
import { listen } from '../support/outbound.js';

/*
 * The conformance fixture app, driven through McpServer.handleMessage. The
 * official suite's checks are shallow (reference/conformance.md §3); these
 * assert every payload exactly, so a fixture cannot drift while the suite
 * still passes.
 */

export type Msg = Record<string, any>;

/* What the conformance suite's client declares at initialize. */
export const SUITE_CAPABILITIES = { sampling: {}, elicitation: {} };

export const NO_INPUT = { type: 'object', additionalProperties: false };

export const TOOL_DESCRIPTIONS: Record<string, string> = {
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
  // The 2026-07-28 scenarios' diagnostic tools.
  test_missing_capability: 'Needs sampling: a client that did not declare it gets -32021.',
  test_streaming_elicitation:
    'Asks the user a question: modern clients get it in an input-required result.',
  test_logging_tool: 'Logs at info: only requests that set a log level receive it.',
  test_trigger_tool_change: 'Announces a tool list change to every listener.',
  test_trigger_prompt_change: 'Announces a prompt list change to every listener.',
  test_input_required_result_elicitation: 'Asks for the user name, then greets.',
  test_input_required_result_sampling: 'Asks the client model a question.',
  test_input_required_result_list_roots: "Lists the client's roots.",
  test_input_required_result_request_state:
    'Asks for a confirmation; the round state travels in requestState.',
  test_input_required_result_multiple_inputs:
    'Asks for a name, a greeting and the roots in one round.',
  test_input_required_result_multi_round: 'Asks two questions, one per round.',
  test_input_required_result_tampered_state:
    'Asks for a confirmation; a tampered requestState is refused.',
  test_input_required_result_capabilities:
    'Asks only through the capabilities the client declared.',
  test_header_region:
    'Routes by region: its region argument travels in the Mcp-Param-Region header.',
  // The tasks extension's scenarios (SEP-2663).
  greet: 'Greets by name, always inline: never a task.',
  slow_compute: 'Works for the given number of seconds, then answers; stops when cancelled.',
  failing_job: 'Runs only as a task; after about a second it ends with a tool error.',
  protocol_error_job: 'Fails with a JSON-RPC internal error (-32603) while it runs.',
  confirm_delete: 'Asks the user to confirm deleting a file, then reports what it did.',
  multi_input: 'Asks two questions at once and reports both answers.',
  test_tool_with_task:
    'Asks for the user name before it becomes a task, then greets from the task.',
};

export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

export const SEP1034_SCHEMA = {
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

export const SEP1330_SCHEMA = {
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

export const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/* ------------------------------------------------------------------ helpers */

let app: INestApplication;
let server: McpServer;
let connections = 0;
const open: Subscription[] = [];

/** A connection that declared `capabilities`, initialized, and recording what it receives. */
export async function connect(capabilities: object = SUITE_CAPABILITIES) {
  const connId = `conformance-${++connections}`;
  const outbound = listen(server, connId);
  const received = outbound.messages;
  open.push(outbound.subscription);
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
    next: outbound.next,
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

export type Client = Awaited<ReturnType<typeof connect>>;

export const isRequest = (method: string) => (m: Msg) => m.method === method && m.id !== undefined;

/** Starts `tools/call name` and returns the server request it makes, and the pending call. */
export async function callAndCatch(c: Client, name: string, args: object, method: string) {
  const asked = c.next(isRequest(method));
  const call = c.message('tools/call', { name, arguments: args });
  const pending = c.send(call);
  const request = await asked;
  return { request, pending, callId: call.id };
}

/** The chunks of a PNG file after its signature, with their CRCs checked. */
export function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
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
export function wavChunks(wav: Buffer): { id: string; data: Buffer }[] {
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

/**
 * Called at the top of each conformance spec: boots the fixture app once for
 * the file (not listening: the server is driven through handleMessage) and
 * ends the connections a test opened.
 */
export function useConformanceApp(): void {
  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ConformanceModule.forRoot()],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    server = app.get(McpServer);
  });

  afterEach(() => {
    for (const subscription of open.splice(0)) subscription.unsubscribe();
  });

  afterAll(() => app.close());
}

/** The fixture app's server (useConformanceApp() boots it). */
export function conformanceServer(): McpServer {
  return server;
}
