import express from 'express';
import {
  createServer,
  IncomingMessage,
  ServerResponse,
  type RequestListener,
  type Server,
} from 'node:http';
import { EventEmitter } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { buildOnExpressPrototypes } from './express-prototypes.js';

/** Node 22's V8, the one whose change of a prototype the server is spared. */
const NODE_22_V8 = '12.4.254.21-node.33';

/*
 * A real server and a real Express app, with a listener in front of the app's that records
 * the prototypes a request and its response were built on, before Express sees them.
 */
async function listening(app: express.Express, server: Server = createServer()) {
  const built: { request: object | null; response: object | null }[] = [];
  server.on('request', ((req, res) => {
    built.push({ request: Object.getPrototypeOf(req), response: Object.getPrototypeOf(res) });
  }) as RequestListener);
  server.on('request', app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, built, base };
}

/* Writes `text` on a fresh connection and resolves with everything the server answered. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/*
 * Serves one GET of `/` (the app answers `ok`) on `server`, then closes it: the prototypes that
 * request and its response were built on.
 */
async function builtForOneRequest(app: express.Express, server: Server) {
  const { built, base } = await listening(app, server);
  try {
    expect(await (await fetch(base)).text()).toBe('ok');
    expect(built).toHaveLength(1);
    return built[0]!;
  } finally {
    await close(server);
  }
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('buildOnExpressPrototypes (requests built as Express will make them)', () => {
  it("builds each request and response on the app's prototypes, and Express serves them as before", async () => {
    const app = express();
    app.use(express.json());
    app.post('/echo', (req, res) => {
      res.json({
        body: req.body as unknown,
        host: req.get('host'),
        ip: req.ip,
        request: req instanceof IncomingMessage,
        response: res instanceof ServerResponse,
      });
    });
    const server = createServer();
    expect(buildOnExpressPrototypes(server, app, NODE_22_V8)).toBe(true);
    const { built, base } = await listening(app, server);
    try {
      const response = await fetch(`${base}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'hi' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-powered-by')).toBe('Express');
      expect(await response.json()).toEqual({
        body: { text: 'hi' },
        host: new URL(base).host,
        ip: '127.0.0.1',
        request: true,
        response: true,
      });
      // Built on them from the start, not moved onto them by Express.
      expect(built).toHaveLength(1);
      expect(built[0]!.request).toBe(app.request);
      expect(built[0]!.response).toBe(app.response);
    } finally {
      await close(server);
    }
  });

  it("leaves Node's classes on any other V8: Express moves each request as before", async () => {
    for (const v8 of ['11.3.244.8-node.30', '13.6.233.17-node.37']) {
      const app = express();
      app.get('/', (_req, res) => void res.send('ok'));
      const server = createServer();
      expect(buildOnExpressPrototypes(server, app, v8)).toBe(false);
      const built = await builtForOneRequest(app, server);
      expect(built.request).toBe(IncomingMessage.prototype);
      expect(built.response).toBe(ServerResponse.prototype);
    }
  });

  it('keeps the classes an app gave its server, and changes a server once', async () => {
    class AppRequest extends IncomingMessage {}
    const app = express();
    app.get('/', (_req, res) => void res.send('ok'));
    const own = createServer({ IncomingMessage: AppRequest });
    expect(buildOnExpressPrototypes(own, app, NODE_22_V8)).toBe(false);
    expect((await builtForOneRequest(app, own)).request).toBe(AppRequest.prototype);
    const server = createServer();
    expect(buildOnExpressPrototypes(server, app, NODE_22_V8)).toBe(true);
    // A second MCP server of the same app binds its routes on the same server.
    expect(buildOnExpressPrototypes(server, app, NODE_22_V8)).toBe(false);
  });

  it('leaves a server that serves upgrades or CONNECT: those requests never meet Express', async () => {
    for (const event of ['upgrade', 'connect'] as const) {
      const app = express();
      const server = createServer();
      // A WebSocket gateway's way: code written for Node's own request, setting its query.
      server.on(event, (req: IncomingMessage & { query?: unknown }, socket) => {
        req.query = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
        socket.end(`HTTP/1.1 400 Bad Request\r\nx-query: ${String(req.query)}\r\n\r\n`);
      });
      expect(buildOnExpressPrototypes(server, app, NODE_22_V8)).toBe(false);
      const { base } = await listening(app, server);
      try {
        const { port } = new URL(base);
        const answer = await rawRequest(
          Number(port),
          event === 'upgrade'
            ? 'GET /?q=kept HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n'
            : 'CONNECT /?q=kept HTTP/1.1\r\nHost: x\r\n\r\n',
        );
        expect(answer).toContain('x-query: kept');
      } finally {
        await close(server);
      }
    }
  });

  it('does nothing without an Express app, a server, or the server options it sets', () => {
    expect(buildOnExpressPrototypes(createServer(), {}, NODE_22_V8)).toBe(false);
    expect(buildOnExpressPrototypes(createServer(), undefined, NODE_22_V8)).toBe(false);
    expect(buildOnExpressPrototypes(undefined, express(), NODE_22_V8)).toBe(false);
    // A Node whose server keeps its classes under other names: nothing to set, nothing set.
    const renamed = new EventEmitter() as unknown as Server;
    expect(buildOnExpressPrototypes(renamed, express(), NODE_22_V8)).toBe(false);
    expect(Object.getOwnPropertySymbols(renamed).map((key) => key.description)).not.toContain(
      'IncomingMessage',
    );
  });
});
