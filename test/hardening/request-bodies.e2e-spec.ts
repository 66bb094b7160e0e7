import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { connect, type Socket } from 'node:net';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { McpBodyReader } from '../../src/mcp/transports/http/security/body-reader.service.js';
import { FaultTools, HTTP_OPTIONS } from '../faults/faults-app.js';

/* Request bodies cost what the limits say, however slowly or strangely they arrive. */

/** A raw POST to /mcp whose body is sent only in part; resolves with the status line's code. */
function partialPost(port: number, headers: Record<string, string>, part: string, total: number) {
  const socket = connect(port, '127.0.0.1');
  const head = [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Accept: application/json, text/event-stream',
    `Content-Length: ${total}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
  socket.write(head + part);
  const status = new Promise<number>((resolve) => {
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match) resolve(Number(match[1]));
    });
  });
  return { socket, status };
}

describe.each(ADAPTERS)('request bodies on %s', (adapter) => {
  let t: HttpTestApp;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await t?.close();
  });

  it('slow uploads share one byte budget: past maxBufferedBodyBytes the next body is 503, and the budget frees as they end', async () => {
    t = await createHttpApp(
      { ...HTTP_OPTIONS, limits: { maxBufferedBodyBytes: 64 * 1024 } },
      [FaultTools],
      adapter,
    );
    const reader = t.app.get(McpBodyReader);
    const json = { 'Content-Type': 'application/json' };
    const chunk = 'x'.repeat(20 * 1024);
    // Three uploads of 20 KiB each are held (60 KiB of the 64 KiB budget)...
    const held = [0, 1, 2].map(() => partialPost(t.port, json, chunk, 1024 * 1024));
    sockets.push(...held.map((h) => h.socket));
    while (reader.bufferedBytes < 3 * chunk.length) await new Promise((r) => setImmediate(r));
    // ...so a fourth one's first 20 KiB is refused.
    const refused = partialPost(t.port, json, chunk, 1024 * 1024);
    sockets.push(refused.socket);
    expect(await refused.status).toBe(503);
    for (const h of held) h.socket.destroy();
    while (reader.bufferedBytes > 0) await new Promise((r) => setImmediate(r));
    expect(reader.bufferedBytes).toBe(0);
  });

  it('a body that does not arrive within bodyTimeoutMs is 408', async () => {
    t = await createHttpApp(
      { ...HTTP_OPTIONS, limits: { bodyTimeoutMs: 300 } },
      [FaultTools],
      adapter,
    );
    const slow = partialPost(t.port, { 'Content-Type': 'application/json' }, '{"jsonrpc":', 1000);
    sockets.push(slow.socket);
    expect(await slow.status).toBe(408);
    expect(t.app.get(McpBodyReader).bufferedBytes).toBe(0);
  });

  it('a request naming an unknown session may not send more than an initialize needs: 413 at once for a large body, 404 for a small one', async () => {
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools], adapter);
    const headers = {
      'Content-Type': 'application/json',
      'Mcp-Session-Id': 'no-such-session-0123456789',
    };
    const large = partialPost(t.port, headers, '{"jsonrpc":"2.0"', 4 * 1024 * 1024);
    sockets.push(large.socket);
    expect(await large.status).toBe(413);
    expect(t.app.get(McpBodyReader).bufferedBytes).toBe(0);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const small = partialPost(t.port, headers, ping, Buffer.byteLength(ping));
    sockets.push(small.socket);
    expect(await small.status).toBe(404);
  });

  it.each([
    'application/json-patch',
    'application/jsonx',
    'text/json',
    'application/json-seq; charset=utf-8',
  ])('Content-Type %s is 415', async (type) => {
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools], adapter);
    const response = await t.fetch('/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': type },
      body: '{}',
    });
    expect(response.status).toBe(415);
  });

  it('Content-Type application/json with parameters is accepted', async () => {
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools], adapter);
    const { sessionId } = await t.initialize();
    const response = await t.fetch('/mcp', {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'Application/JSON; charset=utf-8',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(200);
  });

  it('a client that aborts mid-upload is no error: nothing is logged at error level', async () => {
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools], adapter);
    const errors = jest.spyOn(Logger.prototype, 'error');
    const reader = t.app.get(McpBodyReader);
    const upload = partialPost(
      t.port,
      { 'Content-Type': 'application/json' },
      '{"jsonrpc":"2.0"',
      5000,
    );
    while (reader.bufferedBytes === 0) await new Promise((r) => setImmediate(r));
    upload.socket.destroy();
    while (reader.bufferedBytes > 0) await new Promise((r) => setImmediate(r));
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});
