import type { INestApplication } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from 'node:http';
import { McpWarden, type McpAuditEvent } from '../../src/index.js';
import type { TestIssuer } from '../support/oidc/index.js';
import {
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
 * `ctx.credentials.exchange()` (RFC 8693) against a real oidc-provider with the token exchange
 * grant registered, and a downstream API that verifies the exchanged token's `aud`, `sub` and
 * `act`. The MCP callers are the official SDK v1 client, each with its own bearer token. The
 * callers and configurations it refuses are in token-exchange-refusals.e2e-spec.ts.
 */

describe('token exchange (RFC 8693) for tools that call downstream APIs as their caller', () => {
  let issuer: TestIssuer;
  let tickets: { url: string; server: Server };
  let app: INestApplication;
  let mcpUrl: string;
  let audit: McpAuditEvent[];
  const clients: Client[] = [];

  beforeAll(async () => {
    issuer = await startExchangeIssuer();
    tickets = await startTicketsApi(issuer);
    downstream.url = tickets.url;
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

  it('a resource read as the caller exchanges too, audited on the read seam', async () => {
    const { client } = await caller('kim');
    const read = await client.readResource({ uri: 'tickets://mine' });
    const text = (read.contents[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual({
      sub: 'kim',
      act: { sub: 'mcp-exchanger' },
      scope: 'tickets:read',
    });
    expect(
      audit.find((event) => event.kind === 'exchange' && event.principal === 'kim'),
    ).toMatchObject({
      seam: 'read',
      name: 'tickets://mine',
      decision: 'allow',
      detail: 'issued',
      audience: TICKETS,
      scope: 'tickets:read',
    });
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
});
