import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { connect, type Socket } from 'node:net';
import { HTTP_VARIANTS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { until } from '../support/until.js';
import { McpBodyReader } from '../../src/mcp/core/http/body-reader.service.js';
import { FaultTools, HTTP_OPTIONS } from '../faults/faults-app.js';

/* Request bodies cost what the limits say, however slowly or strangely they arrive. */

/** A raw POST to /mcp whose body is sent only in part; resolves with the status line's code. */
function partialPost(
  port: number,
  headers: Record<string, string>,
  part: string,
  total: number,
  localAddress = '127.0.0.1',
) {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
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

describe.each(HTTP_VARIANTS)('request bodies on %s', (adapter) => {
  let t: HttpTestApp;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await t?.close();
  });

  it('slow uploads share one byte budget: one caller may hold a quarter of it (429 past that), all callers together the whole (503 past that), and it frees as they end', async () => {
    t = await createHttpApp(
      { ...HTTP_OPTIONS, limits: { maxBufferedBodyBytes: 64 * 1024 } },
      [FaultTools],
      adapter,
    );
    const reader = t.app.get(McpBodyReader);
    const json = { 'Content-Type': 'application/json' };
    const chunk = 'x'.repeat(14 * 1024);
    // Four callers (four addresses) each hold 14 KiB of their 16 KiB share: 56 KiB of 64 KiB.
    const callers = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
    const held = callers.map((address) => partialPost(t.port, json, chunk, 1024 * 1024, address));
    sockets.push(...held.map((h) => h.socket));
    await until(
      () => !(reader.bufferedBytes < callers.length * chunk.length),
      'reader.bufferedBytes < callers.length * chunk.length ends',
    );
    // A second upload of one of them passes its quarter.
    const greedy = partialPost(t.port, json, chunk, 1024 * 1024, '127.0.0.2');
    sockets.push(greedy.socket);
    expect(await greedy.status).toBe(429);
    // A fifth caller's 12 KiB, within its own share, would pass the whole budget.
    const late = partialPost(t.port, json, 'x'.repeat(12 * 1024), 1024 * 1024, '127.0.0.6');
    sockets.push(late.socket);
    expect(await late.status).toBe(503);
    for (const h of held) h.socket.destroy();
    await until(() => reader.bufferedBytes === 0, 'the budget is free');
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
    await until(() => reader.bufferedBytes > 0, 'the upload is held');
    upload.socket.destroy();
    await until(() => reader.bufferedBytes === 0, 'the budget is free');
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});
