import { Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { createServer, IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpModule, McpTool, type McpHttpOptions } from '../../src/index.js';
import { modernHeaders, modernMessage } from '../modern/modern-app.js';
import { EchoTools } from './nest-app.fixture.js';
import {
  HealthController,
  INIT,
  moduleMiddlewareSeen,
  TaggedRoutesModule,
} from './fast-path.fixture.js';

/*
 * The fast path on Fastify: after Fastify has routed the first request to an MCP route, requests
 * to that route's path skip Fastify, but only while nothing Fastify would run for them acts.
 * Fastify names every request it routes (`genReqId`), so the count of names says how many
 * requests it saw; hooks, middleware and CORS in front are seen to run on every request.
 */

interface Setup {
  /** Several servers in the app, in place of the one named `fast`. */
  readonly servers?: readonly { name: string; http: McpHttpOptions }[];
  readonly http?: McpHttpOptions;
  readonly middleware?: boolean;
  readonly fastify?: ConstructorParameters<typeof FastifyAdapter>[0];
  readonly before?: (app: NestFastifyApplication) => void;
  readonly return503OnClosing?: boolean;
  /** The app's tools, in place of EchoTools. */
  readonly providers?: (new (...args: never[]) => object)[];
}

/** What each call's guard saw as its HTTP request: Node's own, or Fastify's wrapper. */
const guardSaw: string[] = [];

class RequestKindGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<object>();
    guardSaw.push(request instanceof IncomingMessage ? 'node' : 'fastify');
    return true;
  }
}

@Injectable()
class GuardedEchoTools {
  @McpTool({ description: 'Echoes its text', input: { type: 'object', properties: {} } })
  @UseGuards(RequestKindGuard)
  echo() {
    return 'echoed';
  }
}

/** A Fastify app with a global prefix and its own route; `routed()` counts what Fastify saw. */
async function boot(setup: Setup = {}) {
  let named = 0;
  const moduleRef = await Test.createTestingModule({
    controllers: [HealthController],
    imports: [
      ...(setup.middleware ? [TaggedRoutesModule] : []),
      ...(setup.servers ?? [{ name: 'fast', http: setup.http ?? {} }]).map((server) =>
        McpModule.forRoot({
          version: '1',
          transport: 'http',
          requireAuthorization: false,
          ...server,
        }),
      ),
    ],
    // With several servers a tool names its servers; these need none.
    providers: setup.servers ? [] : (setup.providers ?? [EchoTools]),
  }).compile();
  const adapter = new FastifyAdapter({
    ...setup.fastify,
    genReqId: () => String(++named),
  });
  const app = moduleRef.createNestApplication<NestFastifyApplication>(adapter, {
    logger: false,
    return503OnClosing: setup.return503OnClosing,
  });
  app.setGlobalPrefix('v1');
  setup.before?.(app);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const post = async (path = '/v1/mcp') => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: INIT,
    });
    await response.arrayBuffer();
    return response;
  };
  return { app, base, post, routed: () => named };
}

/** A plugin's request hook, as `@fastify/helmet` adds one: `count()` is how often it ran. */
function countingHook() {
  let ran = 0;
  return {
    add: (app: NestFastifyApplication) =>
      app
        .getHttpAdapter()
        .getInstance()
        .addHook('onRequest', (_request, _reply, done) => {
          ran++;
          done();
        }),
    count: () => ran,
  };
}

/** Four initializes on the MCP route: their statuses. */
async function fourPosts(post: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await post()).status);
  return statuses;
}

describe('the fast path on Fastify (http.fastPath)', () => {
  it("'auto' (the default): Fastify routes an MCP route's first request, never the next ones", async () => {
    const { app, base, post, routed } = await boot();
    expect(await fourPosts(post)).toEqual([200, 200, 200, 200]);
    expect(routed()).toBe(1);
    // The app's own route is Fastify's, as before.
    const health = await fetch(`${base}/v1/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(routed()).toBe(2);
    // Only the route's exact path: Fastify answers a trailing slash itself (its own 404).
    expect((await post('/v1/mcp/')).status).toBe(404);
    expect(routed()).toBe(3);
    await app.close();
  });

  it("'auto' stays on Fastify when a plugin's request hook is in front: it runs on every request", async () => {
    const hook = countingHook();
    const { app, post, routed } = await boot({
      before: hook.add,
    });
    expect(await fourPosts(post)).toEqual([200, 200, 200, 200]);
    expect(hook.count()).toBe(4);
    expect(routed()).toBe(4);
    await app.close();
  });

  it("'auto' stays on Fastify when a module's middleware (MiddlewareConsumer) is in front", async () => {
    moduleMiddlewareSeen.length = 0;
    const { app, post, routed } = await boot({ middleware: true });
    expect(await fourPosts(post)).toEqual([200, 200, 200, 200]);
    expect(moduleMiddlewareSeen).toEqual(['/v1/mcp', '/v1/mcp', '/v1/mcp', '/v1/mcp']);
    expect(routed()).toBe(4);
    await app.close();
  });

  it("'auto' stays on Fastify with CORS enabled: every answer carries its headers", async () => {
    const { app, post, routed } = await boot({
      before: (nest) => nest.enableCors({ origin: 'https://app.example' }),
    });
    for (let i = 0; i < 3; i++) {
      const response = await post();
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    }
    expect(routed()).toBe(3);
    await app.close();
  });

  it("'auto' stays on Fastify when Fastify logs requests", async () => {
    const { app, post, routed } = await boot({ fastify: { logger: { level: 'silent' } } });
    expect(await fourPosts(post)).toEqual([200, 200, 200, 200]);
    expect(routed()).toBe(4);
    await app.close();
  });

  it('a shutting-down app answers through Fastify: its 503, not the endpoint', async () => {
    const { app, post, routed } = await boot({ return503OnClosing: true });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect(routed()).toBe(1);
    // What Nest's close() does first, before its shutdown hooks and the server's close.
    await app.getHttpAdapter().beforeClose?.();
    expect((await post()).status).toBe(503);
    expect(routed()).toBe(2);
    await app.close();
  });

  it("while Fastify itself closes, requests are Fastify's: its 503, not the endpoint", async () => {
    let during: number | undefined;
    const { app, post, routed } = await boot({
      before: (nest) =>
        nest
          .getHttpAdapter()
          .getInstance()
          .addHook('preClose', async () => {
            during = (await post()).status;
          }),
    });
    expect(await fourPosts(post)).toEqual([200, 200, 200, 200]);
    expect(routed()).toBe(1);
    // Fastify closed directly, not through Nest: Nest's adapter does not know it is closing.
    await app.getHttpAdapter().getInstance().close();
    expect(during).toBe(503);
    expect(routed()).toBe(2);
  });

  it("stays on Fastify where Fastify rewrites URLs, or a serverFactory wraps Fastify's router", async () => {
    let rewritten = 0;
    const rewriting = await boot({
      fastify: {
        rewriteUrl: (req) => {
          rewritten++;
          return req.url ?? '/';
        },
      },
    });
    expect(await fourPosts(rewriting.post)).toEqual([200, 200, 200, 200]);
    expect(rewritten).toBe(4);
    expect(rewriting.routed()).toBe(4);
    await rewriting.app.close();

    let wrapped = 0;
    const factory = await boot({
      fastify: {
        // Fastify's types allow an HTTP/2 handler too; this server is HTTP/1.
        serverFactory: (handler) =>
          createServer((req, res) => {
            wrapped++;
            (handler as unknown as RequestListener)(req, res);
          }),
      },
    });
    expect(await fourPosts(factory.post)).toEqual([200, 200, 200, 200]);
    expect(wrapped).toBe(4);
    expect(factory.routed()).toBe(4);
    await factory.app.close();
  });

  it("the SSE pair's routes go fast for their own method only: Fastify answers the others", async () => {
    const { app, base, routed } = await boot();
    const message = () =>
      fetch(`${base}/v1/messages?sessionId=none`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: INIT,
      });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await message()).status);
    // No such session: the endpoint's 404, three times, from one request routed by Fastify.
    expect(statuses).toEqual([404, 404, 404]);
    expect(routed()).toBe(1);
    const get = await fetch(`${base}/v1/messages`);
    expect(get.status).toBe(404);
    expect(routed()).toBe(2);
    await app.close();
  });

  it('several servers: each route goes fast, and each path reaches its own server', async () => {
    const { app, base, post, routed } = await boot({
      servers: [
        { name: 'admin', http: { path: '/admin/mcp', ssePairPath: '/admin' } },
        { name: 'partner', http: { path: '/partner/mcp', ssePairPath: '/partner' } },
      ],
    });
    expect(await fourPosts(() => post('/v1/admin/mcp'))).toEqual([200, 200, 200, 200]);
    expect(await fourPosts(() => post('/v1/partner/mcp'))).toEqual([200, 200, 200, 200]);
    expect(routed()).toBe(2);
    for (const name of ['admin', 'partner']) {
      const response = await fetch(`${base}/v1/${name}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: INIT,
      });
      const answer = (await response.json()) as { result: { serverInfo: { name: string } } };
      expect(answer.result.serverInfo.name).toBe(name);
    }
    expect(routed()).toBe(2);
    await app.close();
  });

  it('true takes it anyway, but not through a shutdown: Nest still answers 503', async () => {
    const { app, post, routed } = await boot({
      http: { fastPath: true },
      return503OnClosing: true,
    });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect(routed()).toBe(1);
    await app.getHttpAdapter().beforeClose?.();
    expect((await post()).status).toBe(503);
    await app.close();
  });

  it('true takes it anyway: the hook in front sees only the first request', async () => {
    const hook = countingHook();
    const { app, post, routed } = await boot({
      http: { fastPath: true },
      before: hook.add,
    });
    expect(await fourPosts(post)).toEqual([200, 200, 200, 200]);
    expect(hook.count()).toBe(1);
    expect(routed()).toBe(1);
    await app.close();
  });

  it("a route's handlers see Node's request from the request that made it fast on", async () => {
    // A modern-era tools/call needs no session, so it can be a route's first request: it
    // arrives through Fastify, and its guard sees what every later call's sees.
    guardSaw.length = 0;
    const { app, base, routed } = await boot({ providers: [GuardedEchoTools] });
    const call = async (id: number) => {
      const message = modernMessage(id, 'tools/call', { name: 'echo', arguments: {} });
      const response = await fetch(`${base}/v1/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...modernHeaders(message.method, message.params),
        },
        body: JSON.stringify(message),
      });
      return ((await response.json()) as { result?: { content?: { text?: string }[] } }).result;
    };
    expect((await call(1))?.content?.[0]?.text).toBe('echoed');
    expect((await call(2))?.content?.[0]?.text).toBe('echoed');
    expect(routed()).toBe(1);
    expect(guardSaw).toEqual(['node', 'node']);
    await app.close();
  });

  it('false never takes it', async () => {
    const { app, post, routed } = await boot({ http: { fastPath: false } });
    expect(await fourPosts(post)).toEqual([200, 200, 200, 200]);
    expect(routed()).toBe(4);
    await app.close();
  });
});
