import {
  Controller,
  Get,
  type CanActivate,
  type DynamicModule,
  type INestApplication,
  type LoggerService,
  type Provider,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { Authorizers, McpModule, type McpModuleOptions } from '../../src/index.js';
import { ADAPTERS, type AdapterName } from '../support/http-app.js';
import { promptClose } from '../support/idle-sockets.js';

/*
 * The console exists only when configured: an app without
 * `approvals.console.oidc` neither lists a console controller in Nest's route
 * log nor answers at the console's path, whether its options came from
 * `forRoot` or from `forRootAsync`'s factory.
 */

/** Every line Nest logs, as `context: message`. */
class RecordingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(message: unknown, context?: string) {
    this.lines.push(`${context}: ${String(message)}`);
  }
  error = this.log;
  warn = this.log;
  debug = this.log;
  verbose = this.log;
}

const ORIGIN = 'https://console.example.com';

const BASE: McpModuleOptions = {
  name: 'console-routes',
  version: '1.0.0',
  authorizer: Authorizers.allowAll(),
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
  requireAuthorization: false,
};

/** A console that can sign operators in (no request in these tests ever reaches the issuer). */
const WITH_CONSOLE: Partial<McpModuleOptions> = {
  http: {
    auth: {
      issuer: 'https://issuer.example.com',
      audience: 'https://api.example.com/mcp',
      jwksUri: 'https://issuer.example.com/jwks',
    },
  },
  approvals: { console: { oidc: { clientId: 'warden-console', publicUrl: ORIGIN } } },
};

const DECLARATIONS = {
  forRoot: (options: McpModuleOptions): DynamicModule =>
    McpModule.forRoot({ ...options, transport: 'http' }),
  forRootAsync: (options: McpModuleOptions): DynamicModule =>
    McpModule.forRootAsync({ transport: 'http', useFactory: async () => options }),
};

/** An app-wide guard written for the app's own routes: it refuses every HTTP request. */
class RefuseAllGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

/** The app's own route, which the guard does refuse. */
@Controller('ping')
class PingController {
  @Get()
  ping() {
    return 'pong';
  }
}

async function boot(
  adapter: AdapterName,
  module: DynamicModule,
  providers: Provider[] = [],
): Promise<{ app: INestApplication; base: string; logs: string[]; close(): Promise<void> }> {
  const moduleRef = await Test.createTestingModule({
    imports: [module],
    providers,
    controllers: [PingController],
  }).compile();
  const logger = new RecordingLogger();
  const app =
    adapter === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger })
      : moduleRef.createNestApplication({ logger });
  app.setGlobalPrefix('api');
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, base: `http://127.0.0.1:${port}`, logs: logger.lines, close: promptClose(app) };
}

describe.each(ADAPTERS)('console routes (%s)', (adapter) => {
  describe.each(Object.keys(DECLARATIONS) as (keyof typeof DECLARATIONS)[])('%s', (declared) => {
    let t: Awaited<ReturnType<typeof boot>> | undefined;

    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    it('without a console: no console controller in the route log, and 404 at its path', async () => {
      t = await boot(adapter, DECLARATIONS[declared](BASE));
      expect(t.logs.filter((line) => /console/i.test(line))).toEqual([]);
      // The route log was written: the app's own controller and the MCP endpoint are in it.
      expect(t.logs).toContain('RoutesResolver: PingController {/api/ping}:');
      expect(t.logs.some((line) => line.includes('/api/mcp'))).toBe(true);
      for (const path of ['/api', '/api/approvals', '/api/approvals/console.css']) {
        expect((await fetch(t.base + path)).status).toBe(404);
      }
      const post = await fetch(`${t.base}/api/approvals/logout`, { method: 'POST' });
      expect(post.status).toBe(404);
    });

    it('with a console: served under the global prefix', async () => {
      t = await boot(adapter, DECLARATIONS[declared]({ ...BASE, ...WITH_CONSOLE }));
      const style = await fetch(`${t.base}/api/approvals/console.css`);
      expect(style.status).toBe(200);
      expect(style.headers.get('content-type')).toMatch(/^text\/css/);
      const page = await fetch(`${t.base}/api/approvals`, { redirect: 'manual' });
      expect(page.status).not.toBe(404);
      expect(t.logs).toContain('McpConsole: Operator console at /api/approvals');
    });

    it("with a console: the app's global guard stays off it, as off the MCP endpoint", async () => {
      t = await boot(adapter, DECLARATIONS[declared]({ ...BASE, ...WITH_CONSOLE }), [
        { provide: APP_GUARD, useClass: RefuseAllGuard },
      ]);
      expect((await fetch(`${t.base}/api/ping`)).status).toBe(403);
      expect((await fetch(`${t.base}/api/approvals/console.css`)).status).toBe(200);
    });
  });
});
