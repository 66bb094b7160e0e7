import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportPKCS8, createRemoteJWKSet, jwtVerify } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import {
  Authorizers,
  McpModule,
  McpTool,
  McpWarden,
  type McpAuditEvent,
  type McpHttpOptions,
  type McpToolContext,
  type McpTokenExchangeOptions,
} from '../../src/index.js';
import {
  generateSigningKey,
  startTestIssuer,
  TOKEN_EXCHANGE_GRANT,
  type TestIssuer,
} from '../support/oidc/index.js';

/*
 * `ctx.credentials.exchange()` (RFC 8693) against a real oidc-provider with the token exchange
 * grant registered, and a downstream API that verifies the exchanged token's `aud`, `sub` and
 * `act`. The MCP callers are the official SDK v1 client, each with its own bearer token.
 */

const TICKETS = 'https://tickets.example/api';
const SECRET = 'mcp-exchanger-secret-do-not-leak';

/** The downstream API: who the token says is calling, and who acts for them. */
async function startTicketsApi(issuer: TestIssuer): Promise<{ url: string; server: Server }> {
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

let ticketsUrl = '';

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
    const answer = await fetch(ticketsUrl, {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    return { api: answer.status, seen: await answer.json(), scope: token.scope ?? null };
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

function appModule(
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

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function boot(
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

async function clientFor(mcpUrl: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'token-exchange-e2e', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } }),
  );
  return client;
}

const textOf = (result: object) =>
  (((result as { content?: { text: string }[] }).content ?? []) as { text: string }[])
    .map((part) => part.text)
    .join('');

describe('token exchange (RFC 8693) for tools that call downstream APIs as their caller', () => {
  let issuer: TestIssuer;
  let tickets: { url: string; server: Server };
  let app: INestApplication;
  let mcpUrl: string;
  let audit: McpAuditEvent[];
  const clients: Client[] = [];

  beforeAll(async () => {
    issuer = await startTestIssuer({
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
    tickets = await startTicketsApi(issuer);
    ticketsUrl = tickets.url;
    ({ app, mcpUrl } = await boot(issuer, { clientId: 'mcp-exchanger', clientSecret: SECRET }));
    audit = [];
    app.get(McpWarden).audit$.subscribe((event) => audit.push(event));
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app?.close();
    tickets?.server.close();
    await issuer?.close();
  });

  const caller = async (sub: string, exp: string | number = '5m') => {
    const token = await issuer.mintToken({ aud: mcpUrl, sub, scope: 'notes:read', exp });
    const client = await clientFor(mcpUrl, token);
    clients.push(client);
    return { client, token };
  };
  const grantsFor = (subject: string) =>
    issuer.tokenExchanges.filter((record) => record.subject === subject && record.granted);

  it('trades the caller’s token for one the downstream API accepts: its sub is the caller, its actor the server', async () => {
    const { client } = await caller('alice');
    const result = await client.callTool({ name: 'my_tickets', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({
      api: 200,
      seen: { sub: 'alice', act: { sub: 'mcp-exchanger' }, scope: 'tickets:read tickets:write' },
      scope: 'tickets:read tickets:write',
    });
    const exchange = audit.find(
      (event) => event.kind === 'exchange' && event.principal === 'alice',
    );
    expect(exchange).toMatchObject({
      seam: 'tool',
      name: 'my_tickets',
      decision: 'allow',
      detail: 'issued',
      audience: TICKETS,
    });
    // The exchange links to the call's decision.
    const decision = audit.find((event) => event.id === exchange!.of);
    expect(decision).toMatchObject({ kind: 'decision', name: 'my_tickets', principal: 'alice' });
  });

  it('one exchange serves a caller’s calls, sequential or concurrent (the cache)', async () => {
    const { client, token } = await caller('carol');
    for (let i = 0; i < 3; i++) {
      const result = await client.callTool({ name: 'my_tickets', arguments: {} });
      expect(JSON.parse(textOf(result)).seen.sub).toBe('carol');
    }
    expect(grantsFor('carol')).toHaveLength(1);
    // A narrower scope is another key: one more exchange, however many calls ask at once.
    const narrow = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.callTool({ name: 'my_tickets', arguments: { scope: 'tickets:read' } }),
      ),
    );
    for (const result of narrow) expect(JSON.parse(textOf(result)).scope).toBe('tickets:read');
    expect(grantsFor('carol')).toHaveLength(2);
    const cached = audit.filter(
      (event) =>
        event.kind === 'exchange' && event.principal === 'carol' && event.detail === 'cached',
    );
    expect(cached.length).toBeGreaterThanOrEqual(2);
    // Neither token is ever in an audit record.
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('two callers never share a token', async () => {
    const [dave, erin] = await Promise.all([caller('dave'), caller('erin')]);
    const [forDave, forErin] = await Promise.all([
      dave.client.callTool({ name: 'my_tickets', arguments: {} }),
      erin.client.callTool({ name: 'my_tickets', arguments: {} }),
    ]);
    expect(JSON.parse(textOf(forDave)).seen.sub).toBe('dave');
    expect(JSON.parse(textOf(forErin)).seen.sub).toBe('erin');
    expect(grantsFor('dave')).toHaveLength(1);
    expect(grantsFor('erin')).toHaveLength(1);
  });

  it('a refusal is the tool’s error, with the OAuth error code and never the server’s secret', async () => {
    const { client } = await caller('frank');
    const result = await client.callTool({
      name: 'my_tickets',
      arguments: { audience: 'https://payroll.example/api' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^token exchange for https:\/\/payroll\.example\/api was refused: invalid_target/,
    );
    expect(textOf(result)).not.toContain(SECRET);
    expect(
      audit.find((event) => event.kind === 'exchange' && event.principal === 'frank'),
    ).toMatchObject({
      decision: 'deny',
      detail: 'invalid_target',
      audience: 'https://payroll.example/api',
    });
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it('an inbound token that expired is never exchanged', async () => {
    const before = issuer.tokenExchanges.length;
    const { client } = await caller('grace', Math.floor(Date.now() / 1000) + 2);
    const result = await client.callTool({ name: 'exchange_after_expiry', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('the caller’s token has expired: it is not exchanged');
    expect(issuer.tokenExchanges.length).toBe(before);
  });

  it('a caller let in without a bearer token (an authenticate hook) has nothing to exchange', async () => {
    const hooked = await boot(
      issuer,
      { clientId: 'mcp-exchanger', clientSecret: SECRET },
      {
        authenticate: (req) =>
          req.headers['x-api-key'] === 'k1' ? { subject: 'ivan', scopes: [] } : undefined,
      },
    );
    try {
      const client = new Client({ name: 'token-exchange-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(hooked.mcpUrl), {
          requestInit: { headers: { 'x-api-key': 'k1' } },
        }),
      );
      clients.push(client);
      const before = issuer.tokenExchanges.length;
      const result = await client.callTool({ name: 'my_tickets', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'token exchange needs the caller’s bearer token, and this caller presented none that verifies',
      );
      expect(issuer.tokenExchanges.length).toBe(before);
    } finally {
      await hooked.app.close();
    }
  });

  it('a bearer token of someone other than the caller the request was let in as is not exchanged', async () => {
    // The hook lets "ivan" in; the request also carries mallory's valid bearer token.
    const hooked = await boot(
      issuer,
      { clientId: 'mcp-exchanger', clientSecret: SECRET },
      {
        authenticate: (req) =>
          req.headers['x-api-key'] === 'k1' ? { subject: 'ivan', scopes: [] } : undefined,
      },
    );
    try {
      const mallory = await issuer.mintToken({ aud: hooked.mcpUrl, sub: 'mallory' });
      const client = new Client({ name: 'token-exchange-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(hooked.mcpUrl), {
          requestInit: { headers: { 'x-api-key': 'k1', authorization: `Bearer ${mallory}` } },
        }),
      );
      clients.push(client);
      const before = issuer.tokenExchanges.length;
      const result = await client.callTool({ name: 'my_tickets', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'token exchange needs the caller’s bearer token, and this caller presented none that verifies',
      );
      expect(issuer.tokenExchanges.length).toBe(before);
    } finally {
      await hooked.app.close();
    }
  });

  it('a wrong client secret is the issuer’s invalid_client, told to the tool by its code only', async () => {
    const wrong = await boot(issuer, { clientId: 'mcp-exchanger', clientSecret: 'not-the-secret' });
    try {
      const token = await issuer.mintToken({ aud: wrong.mcpUrl, sub: 'judy' });
      const client = await clientFor(wrong.mcpUrl, token);
      clients.push(client);
      const result = await client.callTool({ name: 'my_tickets', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'token exchange for https://tickets.example/api was refused: invalid_client',
      );
    } finally {
      await wrong.app.close();
    }
  });

  it('private_key_jwt: the server authenticates with its own key', async () => {
    const own = await generateSigningKey();
    const keyed = await startTestIssuer({
      tokenExchange: { audiences: { [TICKETS]: ['tickets:read'] } },
    });
    // The server's client registers its public key with the issuer (RFC 7591).
    const registered = await fetch(keyed.registrationEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [own.publicJwk] },
        grant_types: [TOKEN_EXCHANGE_GRANT],
        response_types: [],
        redirect_uris: [],
      }),
    });
    expect(registered.status).toBe(201);
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    const api = await startTicketsApi(keyed);
    const saved = ticketsUrl;
    ticketsUrl = api.url;
    const booted = await boot(keyed, {
      clientId,
      privateKey: await exportPKCS8(own.privateKey),
    });
    try {
      const token = await keyed.mintToken({ aud: booted.mcpUrl, sub: 'heidi' });
      const client = await clientFor(booted.mcpUrl, token);
      clients.push(client);
      const result = await client.callTool({ name: 'my_tickets', arguments: {} });
      expect(JSON.parse(textOf(result)).seen).toEqual({
        sub: 'heidi',
        act: { sub: clientId },
        scope: 'tickets:read',
      });
    } finally {
      ticketsUrl = saved;
      await booted.app.close();
      api.server.close();
      await keyed.close();
    }
  });

  it('boot refuses a configuration with both client authentications or neither', async () => {
    for (const exchange of [
      { clientId: 'x' },
      { clientId: 'x', clientSecret: 's', privateKey: 'k' },
    ] as McpTokenExchangeOptions[]) {
      await expect(
        Test.createTestingModule({
          imports: [appModule('http://127.0.0.1:1/mcp', issuer, exchange)],
        }).compile(),
      ).rejects.toThrow('http.auth.tokenExchange needs exactly one of clientSecret');
    }
  });
});
