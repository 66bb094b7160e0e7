import { jest } from '@jest/globals';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { McpBodyReader, type McpBodyReaderSettings } from './body-reader.service.js';

const settings: McpBodyReaderSettings = {
  maxBodyBytes: 1_024,
  maxBufferedBodyBytes: 1_024 * 1_024,
  bodyTimeoutMs: 10_000,
  shapeBounds: {
    maxArgumentKeys: 1_000,
    maxArgumentDepth: 32,
    maxArgumentArrayLength: 1_000,
    maxBatchItems: 10,
  },
};

/*
 * A real server, whose handler reads each request once Node has received the whole of it, as
 * the MCP endpoint usually does for a small POST (its guards and authentication come first).
 */
describe('McpBodyReader, a body that arrived whole', () => {
  let server: Server;
  let handle: (req: IncomingMessage) => Promise<unknown>;
  let waitForWhole = true;
  const reader = new McpBodyReader(settings);

  beforeAll(async () => {
    server = createServer((req, res) => {
      void (async () => {
        // Node parses the body after the headers' event, within the turn that read them.
        while (waitForWhole && !req.complete) await new Promise(setImmediate);
        try {
          res.end(JSON.stringify({ ok: await handle(req) }));
        } catch (error) {
          res.end(JSON.stringify({ status: (error as { status?: number }).status }));
        }
      })();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterAll(() => server.close());

  /** Writes `head` and `body` in one write; resolves with the handler's answer. */
  async function send(head: string, body: string): Promise<unknown> {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(socket, 'connect');
    socket.end(
      `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${head}\r\n${body}`,
    );
    let text = '';
    for await (const chunk of socket) text += String(chunk);
    return JSON.parse(
      text.slice(text.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, ''),
    );
  }

  const chunked = (body: string) => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;

  it('is read from the request at once, with no listener attached', async () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const body = JSON.stringify(message);
    handle = async (req) => {
      const on = jest.spyOn(req, 'on');
      const read = await reader.read(req, 'caller');
      expect(on).not.toHaveBeenCalled();
      return read;
    };
    expect(await send(`Content-Length: ${body.length}\r\n`, body)).toEqual({ ok: message });
  });

  it('is read without a listener when asked for as its headers arrive, as the endpoint does', async () => {
    const message = { jsonrpc: '2.0', id: 3, method: 'ping' };
    const body = JSON.stringify(message);
    waitForWhole = false;
    handle = async (req) => {
      expect(req.readableLength).toBe(0);
      const on = jest.spyOn(req, 'on');
      const read = await reader.read(req, 'caller');
      expect(on).not.toHaveBeenCalled();
      return read;
    };
    try {
      expect(await send(`Content-Length: ${body.length}\r\n`, body)).toEqual({ ok: message });
    } finally {
      waitForWhole = true;
    }
  });

  it('past maxBodyBytes without a declared length, is refused with 413', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { x: 'y'.repeat(1_100) },
    });
    handle = async (req) => {
      try {
        return await reader.read(req, 'caller');
      } finally {
        // Drained rather than left unread: a socket Node paused for it would hold the connection.
        expect(req.readableFlowing).toBe(true);
      }
    };
    expect(await send('Transfer-Encoding: chunked\r\n', chunked(body))).toEqual({ status: 413 });
  });

  it('within maxBodyBytes without a declared length, is read', async () => {
    const message = { jsonrpc: '2.0', id: 2, method: 'ping' };
    handle = (req) => reader.read(req, 'caller');
    const answer = await send('Transfer-Encoding: chunked\r\n', chunked(JSON.stringify(message)));
    expect(answer).toEqual({ ok: message });
  });
});
