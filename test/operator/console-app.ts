import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { filter, firstValueFrom } from 'rxjs';
import {
  Authorizers,
  MCP_OPERATOR_DESK,
  McpModule,
  type McpModuleOptions,
  type McpOperatorAsk,
  type McpOperatorDesk,
} from '../../src/index.js';
import { freePort } from '../auth/auth-app.js';
import type { AdapterName } from '../support/http-app.js';
import type { TestIssuer } from '../support/oidc/index.js';
import { operatorAuthorizer, OperatorTools } from './operator-app.js';

export {
  pairOf,
  SESSION_COOKIE,
  signInThroughConsole,
  type ConsoleSignInResult,
} from './console-sign-in.js';
import { promptClose } from '../support/idle-sockets.js';

/*
 * The fixture of the console suites: the four-eyes app of `operator-app.ts`
 * with the operator console on, signing operators in at a real oidc-provider
 * through the console's own OIDC client.
 */

export const CONSOLE_CLIENT_ID = 'warden-console';
export const APPROVER_SCOPE = 'mcp:approve';
/** The issuer's scopes: the API's and the approver's. */
export const ISSUER_SCOPES = ['notes:read', 'notes:write', APPROVER_SCOPE];

export interface ConsoleApp {
  readonly app: INestApplication;
  /** `http://127.0.0.1:<port>`: the console's public origin. */
  readonly origin: string;
  /** `<origin>/approvals` */
  readonly console: string;
  readonly url: string;
  readonly desk: McpOperatorDesk;
  /** The next ask recorded (subscribe before the call that makes it). */
  nextAsk(): Promise<McpOperatorAsk>;
  /** An SDK v1 client for `sub` holding `scope` (a bearer token from the issuer's key). */
  caller(sub: string, scope?: string): Promise<Client>;
  close(): Promise<void>;
}

/** Ports picked before the issuer starts, so the console's redirect URIs can be registered. */
export async function consolePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  return ports;
}

/** The console's client at the issuer, with one redirect URI per port. */
export function consoleClient(ports: number[]) {
  return {
    clientId: CONSOLE_CLIENT_ID,
    authMethod: 'none' as const,
    scope: ['openid', ...ISSUER_SCOPES].join(' '),
    redirectUris: ports.map((port) => `http://127.0.0.1:${port}/approvals/callback`),
  };
}

export async function bootConsoleApp(
  issuer: TestIssuer,
  port: number,
  adapter: AdapterName = 'express',
  options: Partial<McpModuleOptions> = {},
): Promise<ConsoleApp> {
  const origin = `http://127.0.0.1:${port}`;
  const url = `${origin}/mcp`;
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpModule.forRoot({
        name: 'console-test',
        version: '1.0.0',
        transport: 'http',
        authorizer: operatorAuthorizer,
        authorizerSource: 'configured',
        readAuthorizer: Authorizers.allowAll(),
        requireAuthorization: false,
        elicitationTimeoutMs: 60_000,
        http: { auth: { issuer: issuer.issuer, audience: url, jwksUri: issuer.jwksUri } },
        approvals: { console: { oidc: { clientId: CONSOLE_CLIENT_ID, publicUrl: origin } } },
        ...options,
      }),
    ],
    providers: [OperatorTools],
  }).compile();
  const app =
    adapter === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  await app.listen(port, '127.0.0.1');
  const closeApp = promptClose(app);
  const desk = app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
  const clients: Client[] = [];
  return {
    app,
    origin,
    console: `${origin}/approvals`,
    url,
    desk,
    nextAsk: () =>
      firstValueFrom(desk.events$.pipe(filter((event) => event.type === 'pending'))).then(
        (event) => (event as { ask: McpOperatorAsk }).ask,
      ),
    async caller(sub, scope = 'notes:write') {
      const token = await issuer.mintToken({ aud: url, sub, scope });
      const client = new Client({ name: 'caller', version: '1.0.0' }, { capabilities: {} });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(client);
      return client;
    },
    async close() {
      // A call still waiting ends with its connection; its rejection is not this close's.
      await Promise.allSettled(clients.splice(0).map((client) => client.close()));
      await closeApp();
    },
  };
}

/** What signing in through the console gave a Node user agent. */
/** The CSRF token a console page carries. */
export function csrfOf(page: string): string {
  const match = /data-csrf="([^"]+)"/.exec(page);
  if (!match) throw new Error('the page carries no CSRF token');
  return match[1];
}
