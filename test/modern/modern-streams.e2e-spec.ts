import { Client as SdkV1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkV1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpWarden } from '../../src/index.js';
import { HTTP_VARIANTS, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import {
  approvalQuestion,
  bootModernApp,
  modernMessage,
  postModern,
  readJson,
  PURGE_PROMPT,
  resetFixture,
  runs,
  SERVER_INFO_KEY,
} from './modern-app.js';

/*
 * A modern POST's response (raw fetch): plain JSON unless a message related
 * to the request (a log line the request asked for, progress) must precede
 * the answer, then an SSE stream; dropping the response cancels the request;
 * no session is ever created, and handshake-era sessions and clients on the
 * same endpoint are unaffected.
 */

const SERVER = { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } };
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

const logLine = (level: string, data: string) => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level, data },
});
const answer = (id: number, text: string) => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text }], resultType: 'complete', _meta: SERVER },
});

describe.each(HTTP_VARIANTS)('modern responses and streams (%s)', (variant) => {
  let t: HttpTestApp;
  let warden: McpWarden;

  beforeAll(async () => {
    t = await bootModernApp(variant);
    warden = t.app.get(McpWarden);
  });
  afterAll(() => t.close());
  beforeEach(() => resetFixture());

  /** Posts `message` and reads its whole SSE response. */
  async function streamed(message: object): Promise<object[]> {
    const response = await postModern(t, message as { method: string });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = new SseReader(response);
    expect(await reader.ended).toEqual({});
    return reader.messages;
  }

  describe('log notifications', () => {
    it('a request without a log level gets none: its answer is plain JSON', async () => {
      const response = await postModern(
        t,
        modernMessage(1, 'tools/call', { name: 'chatty', arguments: {} }),
      );
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await readJson(response)).toEqual(answer(1, 'done'));
    });

    it('logLevel "debug": every line, on the SSE response, before the result', async () => {
      const message = modernMessage(
        2,
        'tools/call',
        { name: 'chatty', arguments: {} },
        {},
        {
          [LOG_LEVEL]: 'debug',
        },
      );
      expect(await streamed(message)).toEqual([
        logLine('debug', 'a debug line'),
        logLine('error', 'an error line'),
        answer(2, 'done'),
      ]);
    });

    it('logLevel "error": only the lines at or above it', async () => {
      const message = modernMessage(
        3,
        'tools/call',
        { name: 'chatty', arguments: {} },
        {},
        {
          [LOG_LEVEL]: 'error',
        },
      );
      expect(await streamed(message)).toEqual([
        logLine('error', 'an error line'),
        answer(3, 'done'),
      ]);
    });
  });

  it('progress travels on the SSE response, before the result', async () => {
    const message = modernMessage(
      4,
      'tools/call',
      { name: 'progressive', arguments: {} },
      {},
      {
        progressToken: 'p-4',
      },
    );
    const progress = (value: number, text: string) => ({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p-4', progress: value, total: 2, message: text },
    });
    expect(await streamed(message)).toEqual([
      progress(1, 'half'),
      progress(2, 'all'),
      answer(4, 'progressed'),
    ]);
  });

  describe('a dropped response cancels the request', () => {
    it('dropped before anything was sent: the tool sees ctx.signal abort; nothing stays in flight', async () => {
      const abort = new AbortController();
      const pending = postModern(
        t,
        modernMessage(5, 'tools/call', { name: 'hold', arguments: {} }),
        {},
        abort,
      );
      const settled = pending.then(
        () => 'answered',
        (error: Error) => error.name,
      );
      await runs.holding.promise;
      expect(warden.stats()).toEqual({ connections: 1, inFlight: 1, pendingClientRequests: 0 });
      const closed = t.nextSocketClose();
      abort.abort();
      expect(await runs.hold!.aborted.promise).toBe('aborted');
      expect(runs.hold!.signal.aborted).toBe(true);
      expect(await settled).toBe('AbortError');
      await closed;
      expect(warden.stats()).toEqual({ connections: 0, inFlight: 0, pendingClientRequests: 0 });
    });

    it('dropped mid-stream (after its progress): the same', async () => {
      const abort = new AbortController();
      const message = modernMessage(
        6,
        'tools/call',
        { name: 'hold', arguments: {} },
        {},
        {
          progressToken: 6,
        },
      );
      const response = await postModern(t, message, {}, abort);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = new SseReader(response);
      expect(JSON.parse((await reader.at(0)).data)).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 6, progress: 1, message: 'holding' },
      });
      const closed = t.nextSocketClose();
      abort.abort();
      expect(await runs.hold!.aborted.promise).toBe('aborted');
      await closed;
      expect(warden.stats()).toEqual({ connections: 0, inFlight: 0, pendingClientRequests: 0 });
      expect(reader.messages).toHaveLength(1);
    });
  });

  describe('stateless beside the sessions (dual era)', () => {
    it('a modern POST never gets an Mcp-Session-Id, and one it sends is ignored', async () => {
      const first = await postModern(
        t,
        modernMessage(7, 'tools/call', { name: 'echo', arguments: { text: 'a' } }),
      );
      expect(first.headers.get('mcp-session-id')).toBeNull();
      expect(await readJson(first)).toEqual(answer(7, 'echo: a'));
      const withSession = await postModern(
        t,
        modernMessage(8, 'tools/call', { name: 'echo', arguments: { text: 'b' } }),
        { 'mcp-session-id': 'no-such-session' },
      );
      expect(withSession.status).toBe(200);
      expect(withSession.headers.get('mcp-session-id')).toBeNull();
      expect(await readJson(withSession)).toEqual(answer(8, 'echo: b'));
      expect(warden.stats().connections).toBe(0);
    });

    it('a handshake-era session keeps working between modern requests on the same endpoint', async () => {
      const { sessionId } = await t.initialize();
      const legacyCall = async (id: number, text: string) => {
        const response = await t.post(
          t.message('tools/call', { name: 'echo', arguments: { text } }, id),
          { 'mcp-session-id': sessionId },
        );
        expect(response.status).toBe(200);
        return response.json();
      };
      expect(await legacyCall(10, 'before')).toEqual({
        jsonrpc: '2.0',
        id: 10,
        result: { content: [{ type: 'text', text: 'echo: before' }] },
      });
      const modern = await postModern(
        t,
        modernMessage(11, 'tools/call', { name: 'echo', arguments: { text: 'm' } }),
      );
      expect(await readJson(modern)).toEqual(answer(11, 'echo: m'));
      expect(await legacyCall(12, 'after')).toEqual({
        jsonrpc: '2.0',
        id: 12,
        result: { content: [{ type: 'text', text: 'echo: after' }] },
      });
      const ended = await t.fetch('/mcp', {
        method: 'DELETE',
        headers: { 'mcp-session-id': sessionId },
      });
      expect(ended.status).toBe(200);
    });

    it('a handshake-era SDK client (v1) is unaffected: its results carry nothing of the modern era', async () => {
      const client = new SdkV1Client(
        { name: 'sdk-v1', version: '1.0.0' },
        { capabilities: { elicitation: {} } },
      );
      const asked: unknown[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params);
        return { action: 'accept', content: { approve: true } };
      });
      await client.connect(new SdkV1Transport(new URL(t.url)));
      try {
        const list = await client.listTools();
        expect(list).not.toHaveProperty('resultType');
        expect(list).not.toHaveProperty('ttlMs');
        expect(list).not.toHaveProperty('_meta');
        expect(await client.callTool({ name: 'purge', arguments: {} })).toEqual({
          content: [{ type: 'text', text: 'purged' }],
        });
        expect(asked).toEqual([approvalQuestion('purge', PURGE_PROMPT).params]);
        expect(runs.purge).toBe(1);
      } finally {
        await client.close();
      }
    });
  });
});

describe.each(HTTP_VARIANTS)(
  'a modern call in flight when the server shuts down (%s)',
  (variant) => {
    let t: HttpTestApp;

    beforeEach(async () => {
      resetFixture();
      t = await bootModernApp(variant);
    });
    afterEach(() => t.close());

    it('app.close() cancels it (the tool sees ctx.signal abort) and completes, as for a session call', async () => {
      const pending = postModern(
        t,
        modernMessage(1, 'tools/call', { name: 'hold', arguments: {} }),
      );
      pending.catch(() => undefined);
      await runs.holding.promise;
      const closing = t.app.close();
      expect(await runs.hold!.aborted.promise).toBe('aborted');
      await closing;
    });

    it('the same for a handshake-era session call (the baseline)', async () => {
      const { sessionId } = await t.initialize();
      const pending = t.post(t.message('tools/call', { name: 'hold', arguments: {} }), {
        'mcp-session-id': sessionId,
      });
      pending.catch(() => undefined);
      await runs.holding.promise;
      const closing = t.app.close();
      expect(await runs.hold!.aborted.promise).toBe('aborted');
      await closing;
    });
  },
);
