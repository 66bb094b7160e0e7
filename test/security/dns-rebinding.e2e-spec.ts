import { McpHttpSessions } from '../../src/testing/index.js';
import {
  HTTP_VARIANTS,
  createHttpApp,
  initializeParams,
  type HttpTestApp,
} from '../support/http-app.js';
import { parseRawAnswer, rawSocketExchange } from '../support/reliability-support.js';
import { Msg, SecurityTools, HTTP_OPTIONS, errorBody } from './security-app.js';

describe.each(HTTP_VARIANTS)('DNS rebinding: Host and Origin on %s', (adapter) => {
  let t: HttpTestApp;
  let sessionId: string;

  beforeAll(async () => {
    t = await createHttpApp(HTTP_OPTIONS, [SecurityTools], adapter);
    sessionId = (await t.initialize()).sessionId;
  });
  afterAll(() => t?.close());

  const initBody = () =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() });

  /** POSTs initialize with exactly these headers (plus the conforming Accept and Content-Type). */
  function rawInit(headers: Record<string, string>) {
    return t.raw(
      'POST',
      '/mcp',
      {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...headers,
      },
      initBody(),
    );
  }

  function expect403(response: { status: number; headers: Msg; body: string }, what: string) {
    expect([what, response.status]).toEqual([what, 403]);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toEqual(errorBody());
  }

  it('loopback Host variants are served: case, any port, IPv6 [::1]', async () => {
    for (const host of [
      `LOCALHOST:${t.port}`,
      'LocalHost',
      'localhost:1',
      `127.0.0.1:${t.port}`,
      '127.0.0.1',
      `[::1]:${t.port}`,
      '[::1]',
    ]) {
      const response = await rawInit({ host });
      expect([host, response.status]).toEqual([host, 200]);
    }
  });

  it('foreign Host values are 403 with a JSON-RPC body, and mint no session', async () => {
    const sessions = t.app.get(McpHttpSessions);
    const before = sessions.size;
    for (const host of [
      'evil.example.com',
      `evil.example.com:${t.port}`,
      'localhost.evil.com',
      `localhost.evil.com:${t.port}`,
      '127.0.0.1.nip.io',
      `0.0.0.0:${t.port}`,
      '[::2]',
      'localhost@evil.com',
      '',
    ]) {
      expect403(await rawInit({ host }), `Host ${host}`);
    }
    expect(sessions.size).toBe(before);
  });

  it('a request without a Host header is refused: 403 (HTTP/1.0), never served (HTTP/1.1)', async () => {
    const head = (version: string) =>
      [
        `POST /mcp HTTP/${version}`,
        'Accept: application/json, text/event-stream',
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(initBody())}`,
        'Connection: close',
      ].join('\r\n');
    const http10 = parseRawAnswer(await rawSocketExchange(t.port, head('1.0'), initBody()));
    expect(http10.status).toBe(403);
    expect(JSON.parse(http10.body)).toEqual(errorBody());
    // Node's HTTP server itself refuses an HTTP/1.1 request without Host (400) before the app.
    const http11 = parseRawAnswer(await rawSocketExchange(t.port, head('1.1'), initBody()));
    expect([400, 403]).toContain(http11.status);
  });

  it('Origin: loopback ones (any case, port, IPv6) pass; null, foreign and look-alikes are 403', async () => {
    for (const origin of [
      'http://localhost:5173',
      'http://LOCALHOST',
      'https://127.0.0.1:8443',
      'http://[::1]:3000',
    ]) {
      const response = await rawInit({ origin });
      expect([origin, response.status]).toEqual([origin, 200]);
    }
    for (const origin of [
      'null',
      'http://evil.example.com',
      'http://localhost.evil.com',
      'http://127.0.0.1.evil.com',
      'http://localhost@evil.com',
      `http://0.0.0.0:${t.port}`,
      'file://',
      'chrome-extension://abcdef',
      'ws://localhost',
      '',
    ]) {
      expect403(await rawInit({ origin }), `Origin ${origin}`);
    }
  });

  it('a foreign Host with a loopback Origin, and a loopback Host with a foreign Origin, are 403', async () => {
    expect403(
      await rawInit({ host: 'evil.example.com', origin: `http://localhost:${t.port}` }),
      'foreign Host',
    );
    expect403(
      await rawInit({ host: `localhost:${t.port}`, origin: 'http://evil.example.com' }),
      'foreign Origin',
    );
  });

  it('every route and method is checked; a refused DELETE leaves the session alive', async () => {
    const evil = { origin: 'http://evil.example.com' };
    const withSession = { ...evil, 'mcp-session-id': sessionId };
    expect403(
      await t.raw('GET', '/mcp', { accept: 'text/event-stream', ...withSession }),
      'GET /mcp',
    );
    expect403(await t.raw('DELETE', '/mcp', withSession), 'DELETE /mcp');
    expect403(await t.raw('GET', '/sse', { accept: 'text/event-stream', ...evil }), 'GET /sse');
    expect403(
      await t.raw(
        'POST',
        '/messages?sessionId=x',
        { 'content-type': 'application/json', ...evil },
        '{}',
      ),
      'POST /messages',
    );
    const ping = await t.post(t.message('ping'), { 'mcp-session-id': sessionId });
    expect(ping.status).toBe(200);
    expect(await ping.json()).toMatchObject({ result: {} });
  });
});
