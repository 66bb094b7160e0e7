import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Authorizers,
  McpModule,
  McpResource,
  McpTool,
  type McpHttpOptions,
  type McpToolContext,
  type McpTokenExchangeOptions,
} from '../../src/index.js';
import { startTestIssuer, TOKEN_EXCHANGE_GRANT, type TestIssuer } from '../support/oidc/index.js';
import { freePort } from './auth-app.js';

/*
 * The token exchange suites' fixture: a real oidc-provider with the RFC 8693 grant registered and
 * a confidential client allowed it, a downstream tickets API that verifies the exchanged token's
 * `aud`, `sub` and `act`, and an MCP app whose tools and resource call it as their caller.
 */

export const TICKETS = 'https://tickets.example/api';
export const SECRET = 'mcp-exchanger-secret-do-not-leak';

/** The downstream API: who the token says is calling, and who acts for them. */
export async function startTicketsApi(
  issuer: TestIssuer,
): Promise<{ url: string; server: Server }> {
  const keys = createRemoteJWKSet(new URL(issuer.jwksUri));
  const server = createServer((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    jwtVerify(token, keys, { issuer: issuer.issuer, audience: TICKETS })
      .then(({ payload }) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sub: payload.sub, act: payload.act, scope: payload.scope }));
      })
      .catch(() => res.writeHead(401).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tickets`, server };
}

/** Where the tools call the tickets API: set once it listens. */
export const downstream = { url: '' };

@Injectable()
class TicketTools {
  @McpTool({
    description: "The caller's tickets, from the tickets API, as the caller",
    input: {
      type: 'object',
      properties: { audience: { type: 'string' }, scope: { type: 'string' } },
    },
  })
  async my_tickets(args: { audience?: string; scope?: string }, ctx: McpToolContext) {
    const token = await ctx.credentials.exchange({
      audience: args.audience ?? TICKETS,
      scope: args.scope,
    });
    const answer = await fetch(downstream.url, {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    return { api: answer.status, seen: await answer.json(), scope: token.scope ?? null };
  }

  @McpResource({
    uri: 'tickets://mine',
    name: 'my_tickets_resource',
    description: "The caller's tickets, as a resource read as the caller",
    mimeType: 'application/json',
  })
  async myTicketsResource(_uri: string, _variables: object, ctx: McpToolContext) {
    const token = await ctx.credentials.exchange({ audience: TICKETS, scope: 'tickets:read' });
    const answer = await fetch(downstream.url, {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    return JSON.stringify(await answer.json());
  }

  @McpTool({ description: 'Waits for the caller’s token to expire, then exchanges it' })
  async exchange_after_expiry(_args: object, ctx: McpToolContext) {
    const exp = Number(ctx.principal?.claims?.exp) * 1000;
    // The condition under test is the token's real expiry: wait for the clock to pass it.
    while (Date.now() <= exp) await new Promise((resolve) => setTimeout(resolve, 100));
    await ctx.credentials.exchange({ audience: TICKETS });
    return 'exchanged';
  }
}

export function appModule(
  mcpUrl: string,
  issuer: TestIssuer,
  exchange: McpTokenExchangeOptions,
  http: Partial<McpHttpOptions> = {},
) {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'tickets',
        version: '1.0.0',
        transport: 'http',
        // Every call is allowed: this suite is about what a tool does once it runs.
        authorizer: Authorizers.allowAll(),
        authorizerSource: 'configured',
        readAuthorizer: Authorizers.allowAll(),
        http: {
          auth: {
            issuer: issuer.issuer,
            audience: mcpUrl,
            jwksUri: issuer.jwksUri,
            tokenExchange: exchange,
          },
          ...http,
        },
      }),
    ],
    providers: [TicketTools],
  })
  class TicketsApp {}
  return TicketsApp;
}

export async function boot(
  issuer: TestIssuer,
  exchange: McpTokenExchangeOptions,
  http?: Partial<McpHttpOptions>,
) {
  const port = await freePort();
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const moduleRef = await Test.createTestingModule({
    imports: [appModule(mcpUrl, issuer, exchange, http)],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(port, '127.0.0.1');
  return { app, mcpUrl };
}

export async function clientFor(
  mcpUrl: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'token-exchange-e2e', version: '1.0.0' });
  const sent = token ? { ...headers, authorization: `Bearer ${token}` } : headers;
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: sent } }),
  );
  return client;
}

export const textOf = (result: object) =>
  (((result as { content?: { text: string }[] }).content ?? []) as { text: string }[])
    .map((part) => part.text)
    .join('');

/** The issuer, with the token exchange grant for the tickets API and the server's client. */
export function startExchangeIssuer(): Promise<TestIssuer> {
  return startTestIssuer({
    tokenExchange: { audiences: { [TICKETS]: ['tickets:read', 'tickets:write'] } },
    clients: [
      {
        clientId: 'mcp-exchanger',
        clientSecret: SECRET,
        authMethod: 'client_secret_basic',
        grantTypes: [TOKEN_EXCHANGE_GRANT],
      },
    ],
  });
}
