import { McpServer } from '../../src/index.js';
import { initializeParams, type HttpTestApp, HTTP_VARIANTS } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { wireApp, expectRefusal } from './wire-app.js';

describe.each(HTTP_VARIANTS)('HTTP+SSE pair (GET /sse + POST /messages) on %s', (adapter) => {
  let t: HttpTestApp;

  beforeEach(async () => {
    t = await wireApp(adapter);
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

  it('the pair serves only its own methods (GET /sse, POST /messages): others are refused', async () => {
    const stream = new SseReader(
      await t.fetch('/sse', { headers: { accept: 'text/event-stream' } }),
    );
    const messages = (await stream.at(0)).data; // this stream's live /messages?sessionId=…
    const connections = t.app.get(McpServer).stats().connections;
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    for (const [method, path] of [
      ['POST', '/sse'],
      ['PUT', '/sse'],
      ['DELETE', '/sse'],
      ['GET', messages],
      ['PUT', messages],
      ['DELETE', messages],
    ]) {
      // Aborted once the head is in: a wrongly opened stream must fail the test, not hang it.
      const abort = new AbortController();
      const init: RequestInit =
        method === 'GET' || method === 'DELETE'
          ? { method, headers: { accept: 'text/event-stream' } }
          : { method, headers: { 'content-type': 'application/json' }, body: ping };
      const response = await t.fetch(path, init, abort);
      const seen = { method, status: response.status, type: response.headers.get('content-type') };
      abort.abort();
      // Not a route of the pair: the router's 404 (or the endpoint's own 405), never served.
      expect({ ...seen, refused: [404, 405].includes(seen.status) }).toEqual({
        ...seen,
        type: expect.stringMatching(/^application\/json/),
        refused: true,
      });
    }
    expect(t.app.get(McpServer).stats().connections).toBe(connections);
    // Nothing reached the live session: its stream carries only the endpoint event.
    expect(stream.events).toHaveLength(1);
  });
});
