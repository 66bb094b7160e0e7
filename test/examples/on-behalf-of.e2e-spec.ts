// tsconfig.examples.json does not include test/support, whose declaration of oidc-provider (a
// package without types) the test issuer's imports need.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../support/oidc/oidc-provider.d.ts" />
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OnBehalfOfModule } from '../../examples/on-behalf-of/on-behalf-of.module.js';
import type { ApiTicket } from '../../examples/on-behalf-of/tickets-api.interface.js';
import { freePort } from '../auth/auth-app.js';
import { startTestIssuer, TOKEN_EXCHANGE_GRANT, type TestIssuer } from '../support/oidc/index.js';
import { setProcessEnv } from '../support/process-env.js';

/*
 * examples/on-behalf-of: the example's module, configured from the environment as its main.ts
 * is, in front of a real oidc-provider with the RFC 8693 grant and a tickets API that accepts
 * only tokens the issuer signed for it. The MCP callers are the official SDK v1 client over
 * HTTP, each with a bearer token for the MCP server.
 */

const TICKETS_AUDIENCE = 'https://tickets.example/api';
const CLIENT_ID = 'mcp-tickets';
const CLIENT_SECRET = 'mcp-tickets-secret';

const TICKETS: Record<string, ApiTicket[]> = {
  alice: [
    { id: 'T-1', title: 'Printer on floor 2 is jammed', status: 'open' },
    { id: 'T-4', title: 'New laptop for the intern', status: 'closed' },
  ],
  bob: [{ id: 'T-2', title: 'VPN drops every hour', status: 'open' }],
};

/** The tickets API: the tickets of the token's subject, and who acts for them. */
async function startTicketsApi(issuer: TestIssuer) {
  const keys = createRemoteJWKSet(new URL(issuer.jwksUri));
  const seen: JWTPayload[] = [];
  const server: Server = createServer((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (req.url !== '/tickets/mine') return void res.writeHead(404).end();
    jwtVerify(token, keys, { issuer: issuer.issuer, audience: TICKETS_AUDIENCE })
      .then(({ payload }) => {
        seen.push(payload);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            owner: payload.sub,
            act: payload.act,
            tickets: TICKETS[payload.sub ?? ''] ?? [],
          }),
        );
      })
      .catch(() => res.writeHead(401).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

/** Boots the example's module, configured from `env` as main.ts is, on a free port. */
async function bootExample(env: (mcpUrl: string) => Record<string, string>) {
  const port = await freePort();
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const restoreEnv = setProcessEnv(env(mcpUrl));
  try {
    const moduleRef = await Test.createTestingModule({ imports: [OnBehalfOfModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.listen(port, '127.0.0.1');
    return { app, mcpUrl };
  } finally {
    // The configuration is read once, when the module is built.
    restoreEnv();
  }
}

describe('examples/on-behalf-of', () => {
  let issuer: TestIssuer;
  let ticketsApi: Awaited<ReturnType<typeof startTicketsApi>>;
  let app: INestApplication;
  let mcpUrl: string;
  let alice: Client;
  let bob: Client;
  const apps: INestApplication[] = [];
  const clients: Client[] = [];

  const settings = (audience: string, ticketsAudience = TICKETS_AUDIENCE) => ({
    ON_BEHALF_OF_ISSUER: issuer.issuer,
    ON_BEHALF_OF_AUDIENCE: audience,
    ON_BEHALF_OF_CLIENT_ID: CLIENT_ID,
    ON_BEHALF_OF_CLIENT_SECRET: CLIENT_SECRET,
    ON_BEHALF_OF_TICKETS_API_URL: ticketsApi.url,
    ON_BEHALF_OF_TICKETS_API_AUDIENCE: ticketsAudience,
  });

  /** An SDK client for `sub`, with a bearer token whose audience is the MCP server at `url`. */
  async function callerFor(sub: string, url = mcpUrl): Promise<Client> {
    const token = await issuer.mintToken({ aud: url, sub, scope: 'notes:read' });
    const client = new Client({ name: 'on-behalf-of-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }
  const exchangesFor = (subject: string) =>
    issuer.tokenExchanges.filter((record) => record.subject === subject);

  beforeAll(async () => {
    issuer = await startTestIssuer({
      tokenExchange: { audiences: { [TICKETS_AUDIENCE]: ['tickets:read', 'tickets:write'] } },
      clients: [
        {
          clientId: CLIENT_ID,
          clientSecret: CLIENT_SECRET,
          authMethod: 'client_secret_basic',
          grantTypes: [TOKEN_EXCHANGE_GRANT],
        },
      ],
    });
    ticketsApi = await startTicketsApi(issuer);
    ({ app, mcpUrl } = await bootExample((url) => settings(url)));
    apps.push(app);
    [alice, bob] = await Promise.all([callerFor('alice'), callerFor('bob')]);
  });
  afterAll(async () => {
    await Promise.allSettled(clients.splice(0).map((client) => client.close()));
    await Promise.allSettled(apps.splice(0).map((one) => one.close()));
    ticketsApi?.server.close();
    await issuer?.close();
  });

  it('lists my_tickets', async () => {
    const { tools } = await alice.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['my_tickets']);
  });

  it("reads alice's tickets as alice: the tickets API sees her as subject and the server as actor", async () => {
    const result = await alice.callTool({ name: 'my_tickets', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      owner: 'alice',
      actor: CLIENT_ID,
      count: 2,
      tickets: TICKETS.alice,
    });
    expect(ticketsApi.seen.at(-1)).toMatchObject({
      sub: 'alice',
      act: { sub: CLIENT_ID },
      aud: TICKETS_AUDIENCE,
      scope: 'tickets:read', // the tool's scope, not all the audience offers
    });
    expect(exchangesFor('alice')).toEqual([
      {
        clientId: CLIENT_ID,
        subject: 'alice',
        audience: TICKETS_AUDIENCE,
        scope: 'tickets:read',
        granted: true,
      },
    ]);
  });

  it("reads bob's tickets as bob, with a token of his own", async () => {
    const result = await bob.callTool({ name: 'my_tickets', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      owner: 'bob',
      actor: CLIENT_ID,
      count: 1,
      tickets: TICKETS.bob,
    });
    expect(ticketsApi.seen.at(-1)).toMatchObject({ sub: 'bob', act: { sub: CLIENT_ID } });
  });

  it('exchanges once per caller however often each calls (the cache)', async () => {
    const calls = 3;
    const calledBefore = ticketsApi.seen.length;
    for (let i = 0; i < calls; i++) {
      const [forAlice, forBob] = await Promise.all([
        alice.callTool({ name: 'my_tickets', arguments: {} }),
        bob.callTool({ name: 'my_tickets', arguments: {} }),
      ]);
      expect(forAlice.structuredContent).toMatchObject({ owner: 'alice', count: 2 });
      expect(forBob.structuredContent).toMatchObject({ owner: 'bob', count: 1 });
    }
    // Every call reached the tickets API, each as its own caller ...
    const seen = ticketsApi.seen.slice(calledBefore);
    expect(seen.filter((payload) => payload.sub === 'alice')).toHaveLength(calls);
    expect(seen.filter((payload) => payload.sub === 'bob')).toHaveLength(calls);
    // ... but the issuer was asked once for each of them, whichever test called first.
    expect(exchangesFor('alice')).toHaveLength(1);
    expect(exchangesFor('bob')).toHaveLength(1);
  });

  it("the issuer's refusal is the tool's error, with the OAuth error code", async () => {
    // The same example, told an audience the issuer issues no tokens for.
    const misconfigured = await bootExample((url) => settings(url, 'https://payroll.example/api'));
    apps.push(misconfigured.app);
    const carol = await callerFor('carol', misconfigured.mcpUrl);
    const calledBefore = ticketsApi.seen.length;
    const result = await carol.callTool({ name: 'my_tickets', arguments: {} });
    expect(result.isError).toBe(true);
    const text = (result.content as { type: string; text: string }[])[0].text;
    expect(text).toMatch(
      /^token exchange for https:\/\/payroll\.example\/api was refused: invalid_target/,
    );
    expect(text).not.toContain(CLIENT_SECRET);
    // The issuer was asked, and said no (its record of a refusal names no subject).
    expect(
      issuer.tokenExchanges.filter((record) => record.audience === 'https://payroll.example/api'),
    ).toEqual([
      {
        clientId: CLIENT_ID,
        audience: 'https://payroll.example/api',
        scope: 'tickets:read',
        granted: false,
      },
    ]);
    // Nothing reached the tickets API.
    expect(ticketsApi.seen.length).toBe(calledBefore);
  });
});
