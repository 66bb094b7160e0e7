import { Logger } from '@nestjs/common';
import { createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson } from '../../../core/http/send-json.js';
import { sendHttpError } from './send-http-error.js';

/** Serves one request with `handle` on loopback; resolves the client's status and body. */
async function serveOnce(
  handle: (res: ServerResponse) => void,
): Promise<{ status: number; body: string }> {
  const server = createServer((_req, res) => handle(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/', agent: false }, (res: IncomingMessage) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      }).on('error', reject);
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('sendHttpError', () => {
  const logger = new Logger('test');
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  it('answers a request nothing answered yet with the status and a JSON-RPC error, no detail', async () => {
    const answer = await serveOnce((res) => sendHttpError(res, new Error('secret detail'), logger));
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: 'Internal error' } });
    expect(answer.body).not.toContain('secret detail');
  });

  it('leaves whole an answer that waits for the end of the turn when a failure follows it', async () => {
    const answer = await serveOnce((res) => {
      sendJson(res, 200, { jsonrpc: '2.0', id: 1, result: {} });
      sendHttpError(res, new Error('after the answer'), logger);
    });
    expect(answer).toEqual({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{}}' });
  });
});
