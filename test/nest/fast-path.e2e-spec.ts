import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpModule, type McpHttpOptions } from '../../src/index.js';
import { EchoTools } from './nest-app.fixture.js';
import {
  HealthController,
  INIT,
  moduleMiddlewareSeen,
  TaggedRoutesModule,
} from './fast-path.fixture.js';

/**
 * An Express app with a global prefix, its own route and, when asked, one middleware: an
 * `app.use()` one, or a module's (`MiddlewareConsumer`), which Nest registers as routes.
 */
async function boot(http: McpHttpOptions, withMiddleware: boolean | 'module') {
  const moduleRef = await Test.createTestingModule({
    controllers: [HealthController],
    imports: [
      ...(withMiddleware === 'module' ? [TaggedRoutesModule] : []),
      McpModule.forRoot({
        name: 'fast',
        version: '1',
        transport: 'http',
        requireAuthorization: false,
        http,
      }),
    ],
    providers: [EchoTools],
  }).compile();
  const app: INestApplication = moduleRef.createNestApplication({ logger: false });
  const seen: string[] = [];
  if (withMiddleware === true) {
    app.use((req: { url: string }, _res: unknown, next: () => void) => {
      seen.push(req.url);
      next();
    });
  }
  app.setGlobalPrefix('v1');
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const post = (path: string) =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: INIT,
    });
  return { app, seen, post };
}

describe('the Express fast path (http.fastPath)', () => {
  it("'auto' (the default) takes it when no middleware is in front: Express never sees the request", async () => {
    const { app, post } = await boot({}, false);
    const response = await post('/v1/mcp');
    expect(response.status).toBe(200);
    // Express stamps every response it handles; the fast path answers before it.
    expect(response.headers.get('x-powered-by')).toBeNull();
    // The app's own route, registered in front of the MCP ones, is served by Express as before.
    const port = (app.getHttpServer().address() as AddressInfo).port;
    const health = await fetch(`http://127.0.0.1:${port}/v1/health`);
    expect(health.headers.get('x-powered-by')).toBe('Express');
    await app.close();
  });

  it("taken, it leaves the server building requests on Node's own classes, on every Node", async () => {
    const { app, post } = await boot({}, false);
    const express = app.getHttpAdapter().getInstance() as { request: object };
    const built: (object | null)[] = [];
    (app.getHttpServer() as Server).prependListener('request', (req) => {
      built.push(Object.getPrototypeOf(req));
    });
    expect((await post('/v1/mcp')).status).toBe(200);
    // On Node 22 an app whose MCP routes stay on Express builds them on Express's prototypes
    // (express-prototypes.e2e-spec.ts); the fast path's requests never meet Express.
    expect(built).toEqual([IncomingMessage.prototype]);
    expect(built).not.toContain(express.request);
    await app.close();
  });

  it("'auto' stays on Express, middleware and all, when an app middleware is in front", async () => {
    const { app, seen, post } = await boot({}, true);
    const response = await post('/v1/mcp');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-powered-by')).toBe('Express');
    expect(seen).toEqual(['/v1/mcp']);
    await app.close();
  });

  it("'auto' stays on Express when a module's middleware (MiddlewareConsumer) is in front", async () => {
    moduleMiddlewareSeen.length = 0;
    const { app, post } = await boot({}, 'module');
    const response = await post('/v1/mcp');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-powered-by')).toBe('Express');
    expect(moduleMiddlewareSeen).toEqual(['/v1/mcp']);
    await app.close();
  });

  it('true takes it anyway: the prefixed path is served and the middleware is skipped', async () => {
    const { app, seen, post } = await boot({ fastPath: true }, true);
    expect((await post('/v1/mcp')).status).toBe(200);
    expect(seen).toEqual([]);
    expect((await post('/mcp')).status).toBe(404);
    expect(seen).toEqual(['/mcp']);
    await app.close();
  });

  it('false never takes it', async () => {
    const { app, post } = await boot({ fastPath: false }, false);
    const response = await post('/v1/mcp');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-powered-by')).toBe('Express');
    await app.close();
  });
});
