import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpPrincipal } from '../../src/index.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { bootOperatorApp, operator, runs, type OperatorApp } from './operator-app.js';

/*
 * Four eyes hold only if a caller and an operator are told apart the same way
 * everywhere (docs/operator-approvals.md): by issuer and subject, both
 * strings, compared exactly. A token whose `sub` is the number 123 would be
 * the caller 123 to one check and the operator "123" to another; it is
 * refused before it reaches either. Bearer tokens from a real oidc-provider.
 */

let issuer: TestIssuer;
let t: OperatorApp;
const clients: Client[] = [];

beforeAll(async () => {
  issuer = await startTestIssuer();
  t = await bootOperatorApp(issuer);
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});
beforeEach(() => {
  runs.purge = 0;
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

function initialize(token: string): Promise<Response> {
  return fetch(t.url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'identity-e2e', version: '1.0.0' },
      },
    }),
  });
}

/** `purge_notes` called by a fresh client with `token`: the pending result and its ask. */
async function purgeAs(token: string, call: string) {
  const client = new Client({ name: 'caller', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  const asked = t.nextAsk();
  const result = client.callTool({ name: 'purge_notes', arguments: { call } });
  return { result, ask: await asked };
}

describe('identity claims that are not strings', () => {
  it.each([
    ['a number sub', { sub: 123 }],
    ['an empty sub', { sub: '' }],
    ['an array sub', { sub: ['alice'] }],
    ['a number iss', { iss: 123 }],
  ])('a token with %s is refused with 401 invalid_token', async (_, claims) => {
    const token = await issuer.mintToken({ aud: t.url, scope: 'notes:write', claims });
    const response = await initialize(token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await response.arrayBuffer();
  });

  it('the same claims as strings are accepted (the fixture is not what refuses)', async () => {
    const token = await issuer.mintToken({ aud: t.url, sub: '123', scope: 'notes:write' });
    const response = await initialize(token);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });

  it('an operator whose subject or issuer is not a string is not an approver', async () => {
    const { result, ask } = await purgeAs(await t.token('123'), 'typed');
    const numeric = { ...operator(issuer, 'x'), subject: 123 } as unknown as McpPrincipal;
    const badIssuer = { ...operator(issuer, 'olga'), issuer: 7 } as unknown as McpPrincipal;
    for (const who of [numeric, badIssuer]) {
      expect(await t.desk.decide(ask.id, who, { approve: true, via: 'api' })).toEqual({
        ok: false,
        problem: 'not an approver',
      });
    }
    expect(
      await t.desk.decide(ask.id, operator(issuer, '123'), { approve: true, via: 'api' }),
    ).toEqual({ ok: false, problem: 'own call' });
    await t.desk.decide(ask.id, operator(issuer, 'olga'), {
      approve: false,
      reason: 'no',
      via: 'api',
    });
    expect((await result).isError).toBe(true);
    expect(runs.purge).toBe(0);
  });
});

describe('caller and operator: issuer and subject, compared exactly', () => {
  it('the same issuer and subject is the caller: it cannot approve its own call', async () => {
    const { result, ask } = await purgeAs(await t.token('bob'), 'own');
    expect(ask.caller).toMatchObject({ subject: 'bob', issuer: issuer.issuer });
    expect(
      await t.desk.decide(ask.id, operator(issuer, 'bob'), { approve: true, via: 'api' }),
    ).toEqual({ ok: false, problem: 'own call' });
    expect((await t.desk.get(ask.id))?.decision).toBeUndefined();
    await t.desk.decide(ask.id, operator(issuer, 'olga'), { approve: true, via: 'api' });
    expect((await result).content).toEqual([{ type: 'text', text: 'purged all' }]);
    expect(runs.purge).toBe(1);
  });

  it('the same subject under another issuer is another person: it may approve', async () => {
    const { result, ask } = await purgeAs(await t.token('carol'), 'elsewhere');
    const elsewhere = { ...operator(issuer, 'carol'), issuer: 'https://other-issuer.example' };
    expect(await t.desk.decide(ask.id, elsewhere, { approve: true, via: 'api' })).toMatchObject({
      ok: true,
      record: { decision: { approved: true, operator: 'carol' } },
    });
    expect((await result).content).toEqual([{ type: 'text', text: 'purged all' }]);
  });

  it('subjects are compared exactly: Dave and dave are two people', async () => {
    const { result, ask } = await purgeAs(await t.token('dave'), 'case');
    expect(
      await t.desk.decide(ask.id, operator(issuer, 'Dave'), { approve: true, via: 'api' }),
    ).toMatchObject({ ok: true });
    expect((await result).content).toEqual([{ type: 'text', text: 'purged all' }]);
  });
});
