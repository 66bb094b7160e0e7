import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { exportPKCS8 } from 'jose';
import type { Server } from 'node:http';
import type { McpTokenExchangeOptions } from '../../src/index.js';
import {
  generateSigningKey,
  startTestIssuer,
  TOKEN_EXCHANGE_GRANT,
  type TestIssuer,
} from '../support/oidc/index.js';
import {
  appModule,
  boot,
  clientFor,
  downstream,
  SECRET,
  startExchangeIssuer,
  startTicketsApi,
  textOf,
  TICKETS,
} from './token-exchange-app.js';

/*
 * Token exchange's edges: callers with nothing to exchange, a token of someone else, the server's
 * own client authentication (a wrong secret, private_key_jwt) and the boot checks. Each case
 * boots its own app against one real oidc-provider with the RFC 8693 grant.
 */

describe('token exchange: who cannot exchange, and how the server authenticates', () => {
  let issuer: TestIssuer;
  let tickets: { url: string; server: Server };
  const clients: Client[] = [];

  beforeAll(async () => {
    issuer = await startExchangeIssuer();
    tickets = await startTicketsApi(issuer);
    downstream.url = tickets.url;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    tickets?.server.close();
    await issuer?.close();
  });

  /*
   * An app whose `authenticate` hook lets "ivan" in by an API key, beside bearer auth: its calls
   * get a principal without any bearer token of ivan's. Each case asks for an exchange there.
   */
  async function exchangeAsHooked(bearer?: string) {
    const hooked = await boot(
      issuer,
      { clientId: 'mcp-exchanger', clientSecret: SECRET },
      {
        authenticate: (req) =>
          req.headers['x-api-key'] === 'k1' ? { subject: 'ivan', scopes: [] } : undefined,
      },
    );
    try {
      const token = bearer && (await issuer.mintToken({ aud: hooked.mcpUrl, sub: bearer }));
      const client = await clientFor(hooked.mcpUrl, token || undefined, { 'x-api-key': 'k1' });
      clients.push(client);
      const before = issuer.tokenExchanges.length;
      const result = await client.callTool({ name: 'my_tickets', arguments: {} });
      return { result, asked: issuer.tokenExchanges.length - before };
    } finally {
      await hooked.app.close();
    }
  }

  const NONE_THAT_VERIFIES =
    'token exchange needs the caller’s bearer token, and this caller presented none that verifies';

  it('a caller let in without a bearer token (an authenticate hook) has nothing to exchange', async () => {
    const { result, asked } = await exchangeAsHooked();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(NONE_THAT_VERIFIES);
    expect(asked).toBe(0);
  });

  it('a bearer token of someone other than the caller the request was let in as is not exchanged', async () => {
    // The hook lets "ivan" in; the request also carries mallory's valid bearer token.
    const { result, asked } = await exchangeAsHooked('mallory');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(NONE_THAT_VERIFIES);
    expect(asked).toBe(0);
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
    const saved = downstream.url;
    downstream.url = api.url;
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
      downstream.url = saved;
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
