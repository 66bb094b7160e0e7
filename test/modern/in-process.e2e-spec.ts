import type { Subscription } from 'rxjs';
import { McpWarden } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import {
  ELICIT,
  envelope,
  MODERN,
  MODERN_OPTIONS,
  MODERN_PROVIDERS,
  modernMessage,
  resetFixture,
  SERVER_INFO_KEY,
  SUBSCRIPTION_ID_KEY,
} from './modern-app.js';

/*
 * The modern era through McpWarden.handleMessage, no transport: the era is
 * read per message (a handshake-era connection and modern requests share a
 * connection id), envelope errors, -32021, and handler inputs (ctx.elicit,
 * sample, listRoots) as input-required rounds, which never send the client a
 * JSON-RPC request.
 */

const SERVER = { [SERVER_INFO_KEY]: { name: 'test-server', version: '1.0.0' } };
const NAME_Q = {
  method: 'elicitation/create',
  params: {
    message: 'Name?',
    requestedSchema: {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    },
  },
};
const COLOUR_Q = {
  method: 'elicitation/create',
  params: {
    message: 'Colour?',
    requestedSchema: {
      type: 'object',
      properties: { colour: { type: 'string' } },
      required: ['colour'],
    },
  },
};
const text = (value: string) => ({
  content: [{ type: 'text', text: value }],
  resultType: 'complete',
  _meta: SERVER,
});

let t: McpTestApp;
let warden: McpWarden;
let outbound: object[];
let channel: Subscription;
let arrivals: (() => void)[];

/** Resolves when the next message reaches the connection's outbound channel. */
function nextOutbound(): Promise<void> {
  return new Promise((resolve) => arrivals.push(resolve));
}

beforeEach(async () => {
  resetFixture();
  t = await createMcpApp(MODERN_OPTIONS, MODERN_PROVIDERS);
  warden = t.app.get(McpWarden);
  outbound = [];
  arrivals = [];
  channel = warden.subscribe().subscribe((message) => {
    outbound.push(message);
    for (const arrived of arrivals.splice(0)) arrived();
  });
});
afterEach(async () => {
  channel.unsubscribe();
  await t.close();
});

/** A modern request on the default connection. */
function send(
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: object = {},
  meta: Record<string, unknown> = {},
): Promise<any> {
  return warden.handleMessage(modernMessage(id, method, params, capabilities, meta));
}

describe('the era is read per message', () => {
  it('a handshake-era initialize and modern requests on the same connection are each answered in their era', async () => {
    const init = await t.initialize();
    expect(init.protocolVersion).toBe('2025-11-25');
    const modern = await send(1, 'tools/call', { name: 'echo', arguments: { text: 'm' } });
    expect(modern).toEqual({ jsonrpc: '2.0', id: 1, result: text('echo: m') });
    const legacy = await t.request('tools/call', { name: 'echo', arguments: { text: 'l' } });
    expect(legacy.result).toEqual({ content: [{ type: 'text', text: 'echo: l' }] });
  });

  it('initialize carrying a modern envelope is a removed method: -32601', async () => {
    const reply = await send(2, 'initialize', {
      protocolVersion: MODERN,
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32601, message: 'Method not found: initialize' },
    });
  });
});

describe('envelope errors', () => {
  it.each([
    [
      'a protocol version that is not a string',
      { 'io.modelcontextprotocol/protocolVersion': 20260728 },
      'io.modelcontextprotocol/protocolVersion: expected a protocol version string',
    ],
    [
      'no clientCapabilities',
      { 'io.modelcontextprotocol/protocolVersion': MODERN },
      'io.modelcontextprotocol/clientCapabilities: missing',
    ],
    [
      'logLevel "loud"',
      envelope({}, { 'io.modelcontextprotocol/logLevel': 'loud' }),
      'io.modelcontextprotocol/logLevel: not a log level',
    ],
  ])('%s: -32602', async (_name, meta, problem) => {
    const reply = await warden.handleMessage({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/list',
      params: { _meta: meta },
    });
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32602,
        message: `Invalid _meta envelope for protocol revision 2026-07-28: ${problem}`,
      },
    });
  });

  it('an unsupported revision: -32022 with supported and requested', async () => {
    const meta = { ...envelope(), 'io.modelcontextprotocol/protocolVersion': '2025-11-25' };
    const reply = await warden.handleMessage({
      jsonrpc: '2.0',
      id: 'v',
      method: 'tools/list',
      params: { _meta: meta },
    });
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 'v',
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 2025-11-25',
        data: { supported: [MODERN], requested: '2025-11-25' },
      },
    });
  });
});

describe('a capability the request did not declare: -32021', () => {
  it.each([
    ['greet', 'elicitation'],
    ['draft', 'sampling'],
    ['roots', 'roots'],
  ])('%s needs %s', async (tool, capability) => {
    const reply = await send(4, 'tools/call', { name: tool, arguments: {} });
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: -32021,
        message: `Missing required client capability: ${capability}`,
        data: { requiredCapabilities: { [capability]: {} } },
      },
    });
  });
});

describe('handler inputs as input-required rounds', () => {
  it('ctx.elicit without a key asks as "elicit-0", and is answered without a state', async () => {
    const first = await send(5, 'tools/call', { name: 'greet', arguments: {} }, ELICIT);
    expect(first.result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        'elicit-0': {
          method: 'elicitation/create',
          params: {
            message: 'Your name?',
            requestedSchema: {
              type: 'object',
              properties: { name: { type: 'string' } },
              required: ['name'],
            },
          },
        },
      },
      requestState: expect.any(String),
    });
    const answered = await send(
      6,
      'tools/call',
      {
        name: 'greet',
        arguments: {},
        inputResponses: { 'elicit-0': { action: 'accept', content: { name: 'Ann' } } },
      },
      ELICIT,
    );
    expect(answered.result).toEqual(text('hello Ann'));
  });

  it('ctx.sample and ctx.listRoots ask with their keys and methods, and get their answers', async () => {
    const capabilities = { sampling: {}, roots: {} };
    const draft = await send(7, 'tools/call', { name: 'draft', arguments: {} }, capabilities);
    expect(draft.result.inputRequests).toEqual({
      draft: {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Draft' } }],
          maxTokens: 5,
        },
      },
    });
    const sampled = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
    const drafted = await send(
      8,
      'tools/call',
      { name: 'draft', arguments: {}, inputResponses: { draft: sampled } },
      capabilities,
    );
    expect(drafted.result).toEqual(text('draft: hi'));

    const roots = await send(9, 'tools/call', { name: 'roots', arguments: {} }, capabilities);
    expect(roots.result.inputRequests).toEqual({ roots: { method: 'roots/list', params: {} } });
    const listed = await send(
      10,
      'tools/call',
      {
        name: 'roots',
        arguments: {},
        inputResponses: { roots: { roots: [{ uri: 'file:///a' }] } },
      },
      capabilities,
    );
    expect(listed.result).toEqual(text('roots: file:///a'));
  });

  it('a multi-round handler: the state carries the first answer into the second round', async () => {
    const call = (id: number, extra: Record<string, unknown>) =>
      send(id, 'tools/call', { name: 'survey', arguments: {}, ...extra }, ELICIT);
    const round1 = await call(11, {});
    expect(round1.result.inputRequests).toEqual({ name: NAME_Q });
    const round2 = await call(12, {
      inputResponses: { name: { action: 'accept', content: { name: 'Ann' } } },
      requestState: round1.result.requestState,
    });
    expect(round2.result).toEqual({
      resultType: 'input_required',
      inputRequests: { colour: COLOUR_Q },
      requestState: expect.any(String),
    });
    const round3 = await call(13, {
      inputResponses: { colour: { action: 'accept', content: { colour: 'blue' } } },
      requestState: round2.result.requestState,
    });
    expect(round3.result).toEqual(text('Ann likes blue'));
  });

  it('without the state, earlier answers are not remembered: the first question is asked again', async () => {
    const again = await send(
      14,
      'tools/call',
      {
        name: 'survey',
        arguments: {},
        inputResponses: { colour: { action: 'accept', content: { colour: 'blue' } } },
      },
      ELICIT,
    );
    expect(again.result.inputRequests).toEqual({ name: NAME_Q });
  });

  it('an answer of the wrong shape is ignored: the question is asked again', async () => {
    const reply = await send(
      15,
      'tools/call',
      { name: 'greet', arguments: {}, inputResponses: { 'elicit-0': { name: 'Ann' } } },
      ELICIT,
    );
    expect(Object.keys(reply.result.inputRequests)).toEqual(['elicit-0']);
  });

  it('prompts/get may answer input_required too, and renders with the answer', async () => {
    const first = await send(19, 'prompts/get', { name: 'briefing' }, ELICIT);
    expect(first.result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        audience: {
          method: 'elicitation/create',
          params: {
            message: 'For whom?',
            requestedSchema: {
              type: 'object',
              properties: { audience: { type: 'string' } },
              required: ['audience'],
            },
          },
        },
      },
      requestState: expect.any(String),
    });
    const answered = await send(
      20,
      'prompts/get',
      {
        name: 'briefing',
        inputResponses: { audience: { action: 'accept', content: { audience: 'the board' } } },
        requestState: first.result.requestState,
      },
      ELICIT,
    );
    expect(answered.result).toEqual({
      description: 'Asks who the briefing is for, then renders it',
      messages: [{ role: 'user', content: { type: 'text', text: 'Brief the board' } }],
      resultType: 'complete',
      _meta: SERVER,
    });
  });

  it('no JSON-RPC request ever reaches the connection in the modern era', async () => {
    await send(16, 'tools/call', { name: 'greet', arguments: {} }, ELICIT);
    await send(17, 'tools/call', { name: 'purge', arguments: {} }, ELICIT);
    await send(18, 'tools/call', { name: 'draft', arguments: {} }, { sampling: {} });
    expect(outbound).toEqual([]);
  });
});

describe('subscriptions/listen in process', () => {
  const ack = (id: string) => ({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID_KEY]: id } },
  });

  const cancel = (requestId: string) =>
    warden.handleMessage({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, _meta: envelope() },
    });

  it('notifications/cancelled for the listen id ends it with no response', async () => {
    const answer = send('in-1', 'subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    await nextOutbound();
    warden.notify('notifications/tools/list_changed');
    await cancel('in-1');
    expect(await answer).toBeNull();
    expect(outbound).toEqual([
      ack('in-1'),
      {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUBSCRIPTION_ID_KEY]: 'in-1' } },
      },
    ]);
    expect(warden.stats().inFlight).toBe(0);
  });

  it('a cancellation that arrives before the listen handler has run still ends the listen', async () => {
    const answer = send('in-3', 'subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    // Sent at once, as a client that gives up immediately would: the handler has not run yet.
    await cancel('in-3');
    expect(await answer).toBeNull();
    expect(warden.stats().inFlight).toBe(0);
  });

  it('shutdown: notifications/cancelled for the listen request, then its final result', async () => {
    const answer = send('in-2', 'subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    await nextOutbound();
    await t.close();
    expect(await answer).toEqual({
      jsonrpc: '2.0',
      id: 'in-2',
      result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_KEY]: 'in-2', ...SERVER } },
    });
    expect(outbound).toEqual([
      ack('in-2'),
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'in-2', reason: 'server shutting down' },
      },
    ]);
  });
});
