import { McpRegistry } from '../../src/index.js';
import { type HttpTestApp, HTTP_VARIANTS } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import {
  runs,
  hold,
  resetHold,
  wireApp,
  expectRefusal,
  callTool,
  withProgress,
  isPriming,
} from './wire-app.js';

describe.each(HTTP_VARIANTS)('SSE streams on %s', (adapter) => {
  let t: HttpTestApp;

  beforeEach(async () => {
    runs.length = 0;
    resetHold();
    t = await wireApp(adapter);
  });
  afterEach(async () => {
    hold.gate.resolve();
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
    await hold.started.promise;
    abortA.abort();
    expect((await a.ended).error).toBeDefined();

    // Stream B: another call of the same session, complete, while A is held.
    const b = new SseReader(
      await t.post(callTool(32, 'steps', withProgress('tok-b')), { 'mcp-session-id': sessionId }),
    );
    expect(await b.ended).toEqual({});
    const idsOfB = new Set(b.events.map((event) => event.id));

    // The call was not cancelled: it finishes, and its response waits for the client.
    hold.gate.resolve();
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

  it('app.close() ends every open stream cleanly: the standalone, a POST stream, an SSE pair stream', async () => {
    const { sessionId } = await t.initialize();
    const standalone = await t.openStandalone(sessionId);
    await standalone.at(0);
    const call = new SseReader(
      await t.post(callTool(51, 'hold', withProgress('tok-51')), { 'mcp-session-id': sessionId }),
    );
    await hold.started.promise;
    const ssePair = new SseReader(
      await t.fetch('/sse', { headers: { accept: 'text/event-stream' } }),
    );
    await ssePair.at(0);

    // Closed by the server, not by the test: each stream ends without an error.
    const closed = t.app.close();
    expect(await standalone.ended).toEqual({});
    expect(await call.ended).toEqual({});
    expect(await ssePair.ended).toEqual({});
    await closed;
  });
});
