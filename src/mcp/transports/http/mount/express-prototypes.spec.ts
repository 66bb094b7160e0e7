import express from 'express';
import {
  createServer,
  IncomingMessage,
  ServerResponse,
  type RequestListener,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
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
      expect(built).toEqual([{ request: app.request, response: app.response }]);
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
      const { built, base } = await listening(app, server);
      try {
        expect(await (await fetch(base)).text()).toBe('ok');
        expect(built).toEqual([
          { request: IncomingMessage.prototype, response: ServerResponse.prototype },
        ]);
      } finally {
        await close(server);
      }
    }
  });

  it('keeps the classes an app gave its server, and changes a server once', async () => {
    class AppRequest extends IncomingMessage {}
    const app = express();
    app.get('/', (_req, res) => void res.send('ok'));
    const own = createServer({ IncomingMessage: AppRequest });
    expect(buildOnExpressPrototypes(own, app, NODE_22_V8)).toBe(false);
    const { built, base } = await listening(app, own);
    try {
      expect(await (await fetch(base)).text()).toBe('ok');
      expect(built[0]?.request).toBe(AppRequest.prototype);
    } finally {
      await close(own);
    }
    const server = createServer();
    expect(buildOnExpressPrototypes(server, app, NODE_22_V8)).toBe(true);
    // A second MCP server of the same app binds its routes on the same server.
    expect(buildOnExpressPrototypes(server, app, NODE_22_V8)).toBe(false);
  });

  it('does nothing without an Express app or a server', () => {
    expect(buildOnExpressPrototypes(createServer(), {}, NODE_22_V8)).toBe(false);
    expect(buildOnExpressPrototypes(createServer(), undefined, NODE_22_V8)).toBe(false);
    expect(buildOnExpressPrototypes(undefined, express(), NODE_22_V8)).toBe(false);
  });
});
