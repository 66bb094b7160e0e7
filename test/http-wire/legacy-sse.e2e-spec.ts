import { initializeParams, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { wireApp, expectRefusal } from './wire-app.js';

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
