import { Injectable } from '@nestjs/common';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { McpTool } from '../../src/index.js';
import { until } from '../support/until.js';
import { McpBodyReader } from '../../src/mcp/core/http/body-reader.service.js';
import {
  ACCEPT_BOTH,
  HTTP_VARIANTS,
  createHttpApp,
  type HttpTestApp,
} from '../support/http-app.js';

/*
 * limits.maxBufferedBodyBytes bounds the bytes of every body still arriving,
 * over all callers. One caller's slow uploads must not be able to refuse
 * another caller's requests: quotas key anonymous callers by address, so
 * 127.0.0.2 holding the whole budget with slow bodies on its own session must
 * leave 127.0.0.1's small ping alone. Today the ping is 503 "too many request
 * bodies in flight" (seen in the soak's hostile mode: honest initializes
 * refused while drip-fed bodies from another address held the budget).
 */

@Injectable()
class EchoTools {
  @McpTool({ description: 'Echo', inputSchema: { type: 'object' } })
  echo() {
    return 'ok';
  }
}

/** A POST from `localAddress`; resolves with the status, the session header and the body. */
function post(port: number, localAddress: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; session?: string; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method: 'POST',
        path: '/mcp',
        agent: false,
        headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            session: res.headers['mcp-session-id'] as string | undefined,
            body: text,
          }),
        );
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

async function openSession(port: number, localAddress: string): Promise<string> {
  const init = await post(
    port,
    localAddress,
    {},
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    }),
  );
  if (init.status !== 200 || !init.session) throw new Error(`initialize: ${init.status}`);
  return init.session;
}

/** An upload from `localAddress` that announces `total` bytes and sends only `part`. */
function heldUpload(
  port: number,
  localAddress: string,
  session: string,
  part: string,
  total: number,
) {
  const socket: Socket = connect({ port, host: '127.0.0.1', localAddress });
  socket.write(
    [
      'POST /mcp HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Content-Type: application/json',
      `Accept: ${ACCEPT_BOTH}`,
      `Mcp-Session-Id: ${session}`,
      `Content-Length: ${total}`,
      '',
      '',
    ].join('\r\n') + part,
  );
  return socket;
}

describe.each(HTTP_VARIANTS)('the body budget and other callers on %s', (adapter) => {
  let t: HttpTestApp;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await t?.close();
  });

  it('one caller trying to hold maxBufferedBodyBytes in slow uploads gets a quarter of it: another caller’s ping is still answered', async () => {
    const budget = 64 * 1024;
    t = await createHttpApp({ limits: { maxBufferedBodyBytes: budget } }, [EchoTools], adapter);
    const reader = t.app.get(McpBodyReader);
    const hostile = await openSession(t.port, '127.0.0.2');
    const honest = await openSession(t.port, '127.0.0.1');
    // Four uploads of 16 KiB − 4 bytes each: 16 bytes short of the whole budget, held.
    const part = 'x'.repeat(16 * 1024 - 4);
    for (let n = 0; n < 4; n++)
      sockets.push(heldUpload(t.port, '127.0.0.2', hostile, part, 1024 * 1024));
    // One caller may hold only a quarter of the budget: one of its uploads is held, the rest refused.
    await until(() => reader.bufferedBytes >= part.length, 'the first upload is held');
    const ping = await post(
      t.port,
      '127.0.0.1',
      { 'mcp-session-id': honest },
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    );
    expect([ping.status, ping.body]).toEqual([200, '{"jsonrpc":"2.0","id":1,"result":{}}']);
  });
});
