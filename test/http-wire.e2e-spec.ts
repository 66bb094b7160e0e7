import { jest } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import {
  Authorizers,
  McpRegistry,
  McpTool,
  type Authorizer,
  type McpModuleOptions,
  type McpToolContext,
} from '../src/index.js';
import {
  ACCEPT_BOTH,
  createHttpApp,
  httpBootOutcome,
  initializeParams,
  type HttpTestApp,
  type RawResponse,
} from './support/http-app.js';
import { SseReader, type SseEvent } from './support/http-sse.js';

/*
 * Streamable HTTP (2025-11-25 session rules), the legacy HTTP+SSE pair, the
 * Origin/Host policy and the network boot guard, driven with raw fetch (and
 * node:http where fetch cannot express the request: a forged Host, no Accept).
 */

jest.setTimeout(20_000);

/** Tool runs, so a test can tell whether a tool body executed. */
const runs: string[] = [];

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** What `hold` waits on after its first progress; a test resolves it. */
let holdGate = deferred();
/** Resolved by `hold` once it has started (its progress is out). */
let holdStarted = deferred();

@Injectable()
class WireTools {
  @McpTool({
    description: 'Echo the text back',
    input: { type: 'object', properties: { text: { type: 'string' } } },
  })
  echo(args: { text?: string }) {
    return `echo: ${args.text ?? ''}`;
  }

  @McpTool({ description: 'Report three progress steps, then finish' })
  steps(_args: object, ctx: McpToolContext) {
    for (let step = 1; step <= 3; step++) ctx.progress(step, 3, `step ${step}`);
    return 'three steps done';
  }

  @McpTool({ description: 'Report progress, wait for the test, then say whether it was aborted' })
  async hold(_args: object, ctx: McpToolContext) {
    ctx.progress(1, 2, 'holding');
    holdStarted.resolve();
    await holdGate.promise;
    runs.push('hold');
    return `held (aborted: ${ctx.signal.aborted})`;
  }

  @McpTool({
    description: 'Drop the table (needs approval)',
    annotations: { destructiveHint: true },
  })
  drop_table() {
    runs.push('drop_table');
    return 'table dropped';
  }
}

const toolPolicy: Authorizer = (name) =>
  name === 'drop_table' ? { kind: 'ask', prompt: 'Drop the whole table?' } : { kind: 'allow' };

const BASE_OPTIONS: Partial<McpModuleOptions> = {
  authorizer: toolPolicy,
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
  requireAuthorization: true,
  elicitationTimeoutMs: 10_000,
};

const MAX_BODY = 4096;

/** The bounds a test may lower. */
type Bounds = { maxBodyBytes?: number; maxSessions?: number; sessionIdleMs?: number };

/** Boots a wire test app; `bounds` (into `limits`) and `http` go on top of the defaults used here. */
function wireApp(settings: { bounds?: Bounds; http?: McpModuleOptions['http'] } = {}) {
  const limits = { maxBodyBytes: MAX_BODY, ...settings.bounds };
  const options: Partial<McpModuleOptions> = {
    ...BASE_OPTIONS,
    http: { retryMs: 1500, ...settings.http },
    limits,
  };
  return createHttpApp(options, [WireTools]);
}

/** The body every MCP refusal carries: a JSON-RPC error with a null id. */
function errorBody(code: number = expect.any(Number) as unknown as number) {
  return { jsonrpc: '2.0', id: null, error: { code, message: expect.any(String) } };
}

/** Asserts a fetch response is `status` with a JSON-RPC error body (and `code`, if given). */
async function expectRefusal(response: Response, status: number, code?: number): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await response.json()).toEqual(errorBody(code));
}

/** The same for a node:http response. */
function expectRawRefusal(response: RawResponse, status: number): void {
  expect(response.status).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  expect(JSON.parse(response.body)).toEqual(errorBody());
}

const callTool = (id: number | string, name: string, extra: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});

const withProgress = (token: string) => ({ _meta: { progressToken: token } });

const isPriming = (event: SseEvent) => event.id !== undefined && event.data === '';

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

describe('Streamable HTTP sessions', () => {
  let t: HttpTestApp;

  beforeEach(async () => {
    runs.length = 0;
    t = await wireApp();
  });
  afterEach(() => t.close());

  it('initialize mints a session id: visible ASCII, at least 32 characters, new each time', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await t.post(t.message('initialize', initializeParams()));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as any;
      expect(body.result.protocolVersion).toBe('2025-11-25');
      const id = response.headers.get('mcp-session-id');
      expect(id).toMatch(VISIBLE_ASCII);
      expect(id!.length).toBeGreaterThanOrEqual(32);
      ids.push(id!);
    }
    expect(new Set(ids).size).toBe(3);
  });

  it('never adopts a client-chosen session id', async () => {
    const chosen = 'client-chosen-session-id-0123456789abcdef';
    const init = await t.post(t.message('initialize', initializeParams()), {
      'mcp-session-id': chosen,
    });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).not.toBe(chosen);
    await init.json();
    await expectRefusal(await t.post(t.message('ping'), { 'mcp-session-id': chosen }), 404);
  });

  it('a non-initialize POST without a session id is 400 with a JSON-RPC error body', async () => {
    await expectRefusal(await t.post(t.message('tools/list')), 400);
  });

  it('an unknown session id is 404 with a JSON-RPC error body', async () => {
    await expectRefusal(
      await t.post(t.message('ping'), { 'mcp-session-id': 'no-such-session-0123456789abcdef' }),
      404,
    );
  });

  it('DELETE ends the session: its open stream ends; later POSTs and GETs are 404', async () => {
    const { sessionId } = await t.initialize();
    const stream = await t.openStandalone(sessionId);
    await stream.at(0);

    const deleted = await t.fetch('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId },
    });
    expect(deleted.status).toBe(200);
    await deleted.arrayBuffer();
    expect(await stream.ended).toEqual({});

    await expectRefusal(await t.post(t.message('ping'), { 'mcp-session-id': sessionId }), 404);
    await expectRefusal(await t.get(sessionId), 404);
  });

  it('a method other than GET, POST or DELETE is 405 with Allow and a JSON-RPC error body', async () => {
    const response = await t.fetch('/mcp', { method: 'PUT', body: '{}' });
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
    await expectRefusal(response, 405);
  });

  it('a notification POST is 202 with an empty body', async () => {
    const { sessionId } = await t.initialize();
    const response = await t.post(
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { 'mcp-session-id': sessionId },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('a JSON-RPC response POST (answering nothing) is 202 with an empty body', async () => {
    const { sessionId } = await t.initialize();
    const response = await t.post(
      { jsonrpc: '2.0', id: 'nothing-asked-this-0001', result: {} },
      { 'mcp-session-id': sessionId },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('a body that is not JSON is 400 with parse error -32700', async () => {
    const { sessionId } = await t.initialize();
    await expectRefusal(
      await t.post('{"jsonrpc":"2.0","id":1,"method":', { 'mcp-session-id': sessionId }),
      400,
      -32700,
    );
  });

  it('a body over http.maxBodyBytes is 413 with a JSON-RPC error body (declared or streamed)', async () => {
    const { sessionId } = await t.initialize();
    const big = JSON.stringify(
      t.message('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(MAX_BODY) } }),
    );
    await expectRefusal(await t.post(big, { 'mcp-session-id': sessionId }), 413);

    // Chunked: no Content-Length to refuse up front, so the reader's own bound must hold.
    const streamed = await t.raw(
      'POST',
      '/mcp',
      {
        accept: ACCEPT_BOTH,
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
        'mcp-session-id': sessionId,
      },
      big,
    );
    expectRawRefusal(streamed, 413);
  });

  it('a POST whose Accept is missing or lacks a required type is 406', async () => {
    const init = JSON.stringify(t.message('initialize', initializeParams()));
    expectRawRefusal(
      await t.raw('POST', '/mcp', { 'content-type': 'application/json' }, init),
      406,
    );
    for (const accept of ['application/json', 'text/event-stream', 'text/html']) {
      await expectRefusal(await t.post(init, { accept }), 406);
    }
  });

  it('a GET whose Accept lacks text/event-stream is 406', async () => {
    const { sessionId } = await t.initialize();
    await expectRefusal(await t.get(sessionId, { accept: 'application/json' }), 406);
  });

  it('a POST with a Content-Type other than application/json is 415', async () => {
    await expectRefusal(
      await t.post(JSON.stringify(t.message('initialize', initializeParams())), {
        'content-type': 'text/plain',
      }),
      415,
    );
  });

  it('an unsupported MCP-Protocol-Version header is 400', async () => {
    const { sessionId } = await t.initialize();
    for (const version of ['2099-01-01', 'bogus']) {
      await expectRefusal(
        await t.post(t.message('ping'), {
          'mcp-session-id': sessionId,
          'mcp-protocol-version': version,
        }),
        400,
      );
    }
  });

  it('2025-03-26, 2025-06-18 and 2025-11-25 headers are accepted on a 2025-11-25 session', async () => {
    const { sessionId } = await t.initialize('2025-11-25');
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
      const message = t.message('ping');
      const response = await t.post(message, {
        'mcp-session-id': sessionId,
        'mcp-protocol-version': version,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: message.id, result: {} });
    }
  });

  it('a 2025-03-26 session accepts a JSON array batch and answers with an array', async () => {
    const { sessionId, body } = await t.initialize('2025-03-26');
    expect(body.result.protocolVersion).toBe('2025-03-26');
    const ping = t.message('ping');
    const list = t.message('tools/list');
    const response = await t.post(
      [ping, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, list],
      { 'mcp-session-id': sessionId },
    );
    expect(response.status).toBe(200);
    const replies = (await response.json()) as { id: number }[];
    expect(Array.isArray(replies)).toBe(true);
    expect(replies).toHaveLength(2);
    const byId = new Map(replies.map((reply) => [reply.id, reply]));
    expect(byId.get(ping.id as number)).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
    expect(byId.get(list.id as number)).toMatchObject({
      jsonrpc: '2.0',
      id: list.id,
      result: { tools: expect.any(Array) },
    });
  });

  it('a 2025-11-25 session refuses a batch with 400', async () => {
    const { sessionId } = await t.initialize('2025-11-25');
    await expectRefusal(
      await t.post([t.message('ping'), t.message('ping')], { 'mcp-session-id': sessionId }),
      400,
    );
  });
});

describe('Origin and Host validation', () => {
  let t: HttpTestApp;
  const init = () =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() });
  const rawInit = (headers: Record<string, string>) =>
    t.raw(
      'POST',
      '/mcp',
      { accept: ACCEPT_BOTH, 'content-type': 'application/json', ...headers },
      init(),
    );

  afterEach(() => t.close());

  describe('with the default (loopback) lists', () => {
    beforeEach(async () => {
      t = await wireApp();
    });

    it('a foreign Origin is 403 with a JSON-RPC error body, on /mcp and on /sse', async () => {
      await expectRefusal(await t.post(init(), { origin: 'http://evil.example.com' }), 403);
      await expectRefusal(
        await t.fetch('/sse', {
          headers: { accept: 'text/event-stream', origin: 'http://evil.example.com' },
        }),
        403,
      );
    });

    it('an Origin of "null" is 403', async () => {
      await expectRefusal(await t.post(init(), { origin: 'null' }), 403);
    });

    it('a foreign Host is 403 with a JSON-RPC error body', async () => {
      expectRawRefusal(await rawInit({ host: 'evil.example.com' }), 403);
      expectRawRefusal(await rawInit({ host: `evil.example.com:${t.port}` }), 403);
    });

    it('a loopback Origin on any port, and no Origin at all, are allowed', async () => {
      for (const origin of [
        'http://localhost:1234',
        `http://127.0.0.1:${t.port}`,
        'http://[::1]:8080',
      ]) {
        const response = await t.post(init(), { origin });
        expect(response.status).toBe(200);
        await response.json();
      }
      const none = await rawInit({});
      expect(none.status).toBe(200);
    });

    it('loopback Host variants are allowed: LOCALHOST:port, [::1]:port, 127.0.0.1', async () => {
      for (const host of [`LOCALHOST:${t.port}`, `[::1]:${t.port}`, '127.0.0.1', 'localhost']) {
        const response = await rawInit({ host });
        expect({ host, status: response.status }).toEqual({ host, status: 200 });
      }
    });
  });

  describe('with allowedOrigins and allowedHosts', () => {
    beforeEach(async () => {
      t = await wireApp({
        http: { allowedOrigins: ['https://app.example.com'], allowedHosts: ['mcp.example.com'] },
      });
    });

    it('allowedOrigins extends the Origin list; other foreign origins stay refused', async () => {
      const allowed = await t.post(init(), { origin: 'https://app.example.com' });
      expect(allowed.status).toBe(200);
      await allowed.json();
      const local = await t.post(init(), { origin: 'http://localhost:3000' });
      expect(local.status).toBe(200);
      await local.json();
      await expectRefusal(await t.post(init(), { origin: 'https://evil.example.com' }), 403);
    });

    it('allowedHosts extends the Host list (any port); other foreign hosts stay refused', async () => {
      expect((await rawInit({ host: 'mcp.example.com' })).status).toBe(200);
      expect((await rawInit({ host: `mcp.example.com:${t.port}` })).status).toBe(200);
      expect((await rawInit({ host: `localhost:${t.port}` })).status).toBe(200);
      expectRawRefusal(await rawInit({ host: 'other.example.com' }), 403);
    });
  });
});

describe('SSE streams', () => {
  let t: HttpTestApp;

  beforeEach(async () => {
    runs.length = 0;
    holdGate = deferred();
    holdStarted = deferred();
    t = await wireApp();
  });
  afterEach(async () => {
    holdGate.resolve();
    await t.close();
  });

  it('GET opens the standalone stream: text/event-stream, first a priming event', async () => {
    const { sessionId } = await t.initialize();
    const response = await t.get(sessionId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = new SseReader(response);
    const first = await stream.at(0);
    expect(first).toEqual({ id: expect.any(String), retry: 1500, data: '' });
    expect(first.id).not.toBe('');
  });

  it('a second concurrent GET on the same session is 409', async () => {
    const { sessionId } = await t.initialize();
    const stream = await t.openStandalone(sessionId);
    await stream.at(0);
    await expectRefusal(await t.get(sessionId), 409);
  });

  it('a list_changed from a runtime registration arrives on the GET stream', async () => {
    const { sessionId } = await t.initialize();
    const stream = await t.openStandalone(sessionId);
    await stream.at(0);
    t.app.get(McpRegistry).registerTool({
      name: 'late_tool',
      description: 'Registered after boot',
      inputSchema: { type: 'object' },
      handler: () => 'late',
    });
    const notification = await stream.waitForMessage(
      (m) => m.method === 'notifications/tools/list_changed',
    );
    expect(notification).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
  });

  it('a call with nothing to stream is answered with plain JSON', async () => {
    const { sessionId } = await t.initialize();
    const response = await t.post(callTool(5, 'echo', { arguments: { text: 'plain' } }), {
      'mcp-session-id': sessionId,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: { content: [{ type: 'text', text: 'echo: plain' }] },
    });
  });

  it('a call with a progress token streams: priming, progress, then the response; then the stream ends', async () => {
    const { sessionId } = await t.initialize();
    const response = await t.post(callTool(9, 'steps', withProgress('tok-9')), {
      'mcp-session-id': sessionId,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = new SseReader(response);
    expect(await stream.ended).toEqual({});

    expect(isPriming(stream.events[0])).toBe(true);
    expect(stream.messages).toEqual([
      ...[1, 2, 3].map((progress) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'tok-9', progress, total: 3, message: `step ${progress}` },
      })),
      { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'three steps done' }] } },
    ]);
    // Every message event is resumable: it carries an id.
    expect(stream.events.every((event) => event.id !== undefined)).toBe(true);
  });

  it('event ids are unique within the session, across the GET stream and POST streams', async () => {
    const { sessionId } = await t.initialize();
    const standalone = await t.openStandalone(sessionId);
    await standalone.at(0);
    const posts: SseReader[] = [];
    for (const id of [21, 22, 23]) {
      const response = await t.post(callTool(id, 'steps', withProgress(`tok-${id}`)), {
        'mcp-session-id': sessionId,
      });
      const stream = new SseReader(response);
      await stream.ended;
      posts.push(stream);
    }
    t.app.get(McpRegistry).registerTool({
      name: 'another_late_tool',
      description: 'Registered after boot',
      inputSchema: { type: 'object' },
      handler: () => 'late',
    });
    await standalone.waitForMessage((m) => m.method === 'notifications/tools/list_changed');

    const ids = [standalone, ...posts].flatMap((stream) => stream.events.map((event) => event.id));
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(ids).toHaveLength(2 + 3 * 5);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resumability: a dropped POST stream is not a cancellation; the response is resumed with Last-Event-ID', async () => {
    const { sessionId } = await t.initialize();

    // Stream A: the held call. Read its priming event, then drop the connection.
    const abortA = new AbortController();
    const a = new SseReader(
      await t.post(
        callTool(31, 'hold', withProgress('tok-a')),
        { 'mcp-session-id': sessionId },
        abortA,
      ),
    );
    const priming = await a.at(0);
    expect(isPriming(priming)).toBe(true);
    await holdStarted.promise;
    abortA.abort();
    expect((await a.ended).error).toBeDefined();

    // Stream B: another call of the same session, complete, while A is held.
    const b = new SseReader(
      await t.post(callTool(32, 'steps', withProgress('tok-b')), { 'mcp-session-id': sessionId }),
    );
    expect(await b.ended).toEqual({});
    const idsOfB = new Set(b.events.map((event) => event.id));

    // The call was not cancelled: it finishes, and its response waits for the client.
    holdGate.resolve();
    const resumed = new SseReader(await t.get(sessionId, { 'last-event-id': priming.id! }));
    expect(resumed.response.status).toBe(200);
    expect(resumed.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const answer = await resumed.waitForMessage((m) => m.id === 31);
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 31,
      result: { content: [{ type: 'text', text: 'held (aborted: false)' }] },
    });
    expect(runs).toEqual(['hold']);
    expect(await resumed.ended).toEqual({});

    // Nothing of stream B is replayed on A's resumed stream.
    expect(resumed.events.filter((event) => idsOfB.has(event.id))).toEqual([]);
    expect(
      resumed.messages.filter((m) => m.id === 32 || m.params?.progressToken === 'tok-b'),
    ).toEqual([]);
  });

  it("Last-Event-ID of a POST stream's priming event replays every message sent after it, with its id", async () => {
    const { sessionId } = await t.initialize();
    const original = new SseReader(
      await t.post(callTool(35, 'steps', withProgress('tok-35')), { 'mcp-session-id': sessionId }),
    );
    expect(await original.ended).toEqual({});
    const [priming, ...sent] = original.events;
    expect(isPriming(priming)).toBe(true);
    expect(sent).toHaveLength(4); // three progress notifications and the response

    const replay = new SseReader(await t.get(sessionId, { 'last-event-id': priming.id! }));
    expect(replay.response.status).toBe(200);
    expect(await replay.ended).toEqual({});
    expect(replay.events).toEqual(sent);
  });

  it('a resumed standalone stream delivers what was queued while no GET stream was open', async () => {
    const { sessionId } = await t.initialize();
    const abort = new AbortController();
    const first = await t.openStandalone(sessionId, abort);
    const priming = await first.at(0);
    const gone = t.nextSocketClose();
    abort.abort();
    await gone; // the server has seen the stream close
    const registry = t.app.get(McpRegistry);
    registry.registerTool({
      name: 'queued_tool',
      description: 'Registered while no stream is open',
      inputSchema: { type: 'object' },
      handler: () => 'queued',
    });

    const resumed = new SseReader(await t.get(sessionId, { 'last-event-id': priming.id! }));
    expect(resumed.response.status).toBe(200);
    // A second change, made while the resumed stream is open, marks where to stop reading.
    registry.registerPrompt({
      name: 'live_prompt',
      description: 'Registered while the resumed stream is open',
      handler: () => [],
    });
    await resumed.waitForMessage((m) => m.method === 'notifications/prompts/list_changed');
    expect(resumed.messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' },
    ]);
  });

  it('a Last-Event-ID that names no known event is 404', async () => {
    const { sessionId } = await t.initialize();
    await expectRefusal(await t.get(sessionId, { 'last-event-id': 'nonsense' }), 404);
  });
});

describe('session bounds', () => {
  let t: HttpTestApp;

  afterEach(() => t.close());

  it('an idle session expires (404); one with an open stream does not', async () => {
    t = await wireApp({ bounds: { sessionIdleMs: 200 } });
    const idle = await t.initialize();
    const streaming = await t.initialize();
    const stream = await t.openStandalone(streaming.sessionId);
    await stream.at(0);

    /*
     * Expiry is time-based by definition, so this is the one place that waits
     * on the clock: each round waits longer than the idle limit plus a sweep
     * interval, then probes. A probe that finds the session alive refreshes
     * it, so the next round starts over; the round count is bounded.
     */
    let status = 0;
    for (let round = 0; round < 10 && status !== 404; round++) {
      await delay(400);
      const probe = await t.post(t.message('ping'), { 'mcp-session-id': idle.sessionId });
      status = probe.status;
      await probe.arrayBuffer();
    }
    expect(status).toBe(404);

    const alive = await t.post(t.message('ping'), { 'mcp-session-id': streaming.sessionId });
    expect(alive.status).toBe(200);
    await alive.json();
  });

  it('past http.maxSessions, initialize is 503 with a JSON-RPC error body; a DELETE frees a slot', async () => {
    t = await wireApp({ bounds: { maxSessions: 2 } });
    const first = await t.initialize();
    await t.initialize();
    await expectRefusal(await t.post(t.message('initialize', initializeParams())), 503);

    const deleted = await t.fetch('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': first.sessionId },
    });
    expect(deleted.status).toBe(200);
    await deleted.arrayBuffer();
    const again = await t.post(t.message('initialize', initializeParams()));
    expect(again.status).toBe(200);
    await again.json();
  });
});

describe('legacy HTTP+SSE (GET /sse + POST /messages)', () => {
  let t: HttpTestApp;

  beforeEach(async () => {
    t = await wireApp();
  });
  afterEach(() => t.close());

  it('announces the POST endpoint, accepts a message with 202 and answers on the stream', async () => {
    const response = await t.fetch('/sse', { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = new SseReader(response);
    const endpoint = await stream.at(0);
    expect(endpoint.event).toBe('endpoint');
    expect(endpoint.data).toMatch(/^\/messages\?sessionId=[\x21-\x7e]+$/);

    const posted = await t.fetch(endpoint.data, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: initializeParams(),
      }),
    });
    expect(posted.status).toBe(202);
    await posted.arrayBuffer();

    const answer = await stream.waitFor((event) => event.data.includes('"id":1'), 1);
    expect(answer.event).toBe('message');
    expect(JSON.parse(answer.data)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-11-25', serverInfo: { name: 'http-test' } },
    });
  });

  it('a POST naming an unknown sessionId is 404 with a JSON-RPC error body', async () => {
    await expectRefusal(
      await t.fetch('/messages?sessionId=no-such-session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }),
      404,
    );
  });
});

describe('elicitation across sessions', () => {
  let t: HttpTestApp;

  beforeEach(async () => {
    runs.length = 0;
    t = await wireApp();
  });
  afterEach(() => t.close());

  it("another session's answer to a session's elicitation is ignored; the owner's answer decides", async () => {
    const a = await t.initialize('2025-11-25', { elicitation: {} });
    const b = await t.initialize('2025-11-25', { elicitation: {} });

    const call = new SseReader(
      await t.post(callTool(41, 'drop_table'), { 'mcp-session-id': a.sessionId }),
    );
    const ask = await call.waitForMessage((m) => m.method === 'elicitation/create');
    expect(ask.params.message).toBe('Drop the whole table?');

    // Session B forges an approval for A's request: accepted as a message, changes nothing.
    const forged = await t.post(
      { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { approve: true } } },
      { 'mcp-session-id': b.sessionId },
    );
    expect(forged.status).toBe(202);
    expect(await forged.text()).toBe('');

    const own = await t.post(
      { jsonrpc: '2.0', id: ask.id, result: { action: 'decline' } },
      { 'mcp-session-id': a.sessionId },
    );
    expect(own.status).toBe(202);
    await own.arrayBuffer();

    const response = await call.waitForMessage((m) => m.id === 41);
    const denial = {
      error: 'authorization_required',
      tool: 'drop_table',
      decision: 'ask',
      detail: 'user declined',
    };
    expect(response.result).toEqual({
      content: [{ type: 'text', text: JSON.stringify(denial) }],
      structuredContent: denial,
      isError: true,
    });
    expect(runs).toEqual([]);
    expect(await call.ended).toEqual({});
  });
});

describe('the network boot guard', () => {
  it('refuses to boot with neither seam configured, naming both', async () => {
    const error = await httpBootOutcome({ requireAuthorization: true });
    expect(error?.message).toContain('refuses to boot');
    expect(error?.message).toContain('tool authorizer');
    expect(error?.message).toContain('read authorizer');
  });

  it("refuses to boot when the tool authorizer's source is 'default', naming the tool seam", async () => {
    const error = await httpBootOutcome({
      requireAuthorization: true,
      authorizer: Authorizers.denyAll(),
      authorizerSource: 'default',
      readAuthorizer: Authorizers.allowAll(),
    });
    expect(error?.message).toContain('refuses to boot');
    expect(error?.message).toContain('tool authorizer');
    expect(error?.message).not.toContain('read authorizer');
  });

  it('refuses to boot without a read authorizer, naming the read seam', async () => {
    const error = await httpBootOutcome({
      requireAuthorization: true,
      authorizer: Authorizers.allowAll(),
      authorizerSource: 'configured',
    });
    expect(error?.message).toContain('refuses to boot');
    expect(error?.message).toContain('read authorizer');
    expect(error?.message).not.toContain('tool authorizer');
  });

  it('boots with both seams configured', async () => {
    expect(
      await httpBootOutcome({
        requireAuthorization: true,
        authorizer: Authorizers.allowAll(),
        authorizerSource: 'configured',
        readAuthorizer: Authorizers.allowAll(),
      }),
    ).toBeUndefined();
  });

  it('boots with no seams when requireAuthorization is false', async () => {
    expect(await httpBootOutcome({ requireAuthorization: false })).toBeUndefined();
  });
});
