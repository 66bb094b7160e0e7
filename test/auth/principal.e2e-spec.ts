import type { Subscription } from 'rxjs';
import { McpWarden, type McpAuditEvent } from '../../src/index.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  bootAuthApp,
  callTool,
  initializeParams,
  resetSeen,
  rpc,
  seen,
  SseReader,
  type AuthApp,
} from './auth-app.js';

/*
 * The verified principal reaches every place that decides or acts (the tool
 * authorizer, the tool context, a Nest guard, the audit trail), and nothing a
 * client writes into a message can set or change it.
 */

let issuer: TestIssuer;
let t: AuthApp;
let alice: string;
let bob: string;
let audit: McpAuditEvent[];
let subscription: Subscription;

beforeAll(async () => {
  issuer = await startTestIssuer();
  t = await bootAuthApp({
    http: (base) => ({
      auth: { issuer: issuer.issuer, audience: `${base}/mcp`, jwksUri: issuer.jwksUri },
    }),
  });
  alice = await issuer.mintToken({
    aud: t.url,
    sub: 'alice',
    scope: 'notes:read notes:write',
    claims: { tenant: 'acme' },
  });
  bob = await issuer.mintToken({ aud: t.url, sub: 'bob', scope: 'notes:admin' });
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});
beforeEach(() => {
  resetSeen();
  audit = [];
  subscription = t.app
    .get(McpWarden)
    .audit$.subscribe((event) => event.kind === 'decision' && audit.push(event));
});
afterEach(() => subscription.unsubscribe());

function expectAlice() {
  const expected = {
    subject: 'alice',
    scopes: ['notes:read', 'notes:write'],
    issuer: issuer.issuer,
    claims: expect.objectContaining({
      sub: 'alice',
      iss: issuer.issuer,
      aud: t.url,
      scope: 'notes:read notes:write',
      tenant: 'acme',
    }),
  };
  const decision = seen.authorizer.find((entry) => entry.name === 'whoami');
  expect(decision?.context).toMatchObject({ transport: 'http', principal: expected });
  expect(seen.tool).toEqual([expected]);
  expect(seen.guard).toEqual([expected]);
}

describe('the principal in context', () => {
  it('Streamable HTTP: authorizer context, ctx.principal, a Nest guard and every audit event carry alice', async () => {
    const session = await t.initialize(alice);
    await t.request(rpc(1, 'tools/list'), { token: alice, session });
    const answer = await t.request(callTool(2, 'whoami'), { token: alice, session });
    expect(answer.result.content).toEqual([{ type: 'text', text: 'alice' }]);
    expectAlice();
    expect(audit.map((e) => `${e.seam}:${e.name}`)).toEqual(
      expect.arrayContaining(['read:tools/list', 'tool:whoami']),
    );
    for (const event of audit) expect(event.principal).toBe('alice');
  });

  it('HTTP+SSE pair: the same principal everywhere', async () => {
    const ssePair = await t.ssePair(alice);
    await ssePair.request(rpc(1, 'initialize', initializeParams()), alice);
    await ssePair.request(rpc(2, 'tools/list'), alice);
    const answer = await ssePair.request(callTool(3, 'whoami'), alice);
    expect(answer.result.content).toEqual([{ type: 'text', text: 'alice' }]);
    expectAlice();
    expect(audit.length).toBeGreaterThanOrEqual(2);
    for (const event of audit) expect(event.principal).toBe('alice');
  });

  it('the approval outcome of an ask is audited with the principal too', async () => {
    const session = await t.initialize(alice, { elicitation: {} });
    const call = new SseReader(await t.post(callTool(5, 'drop_table'), { token: alice, session }));
    const ask = await call.message((m) => m.method === 'elicitation/create');
    const answered = await t.post(
      { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { approve: true } } },
      { token: alice, session },
    );
    expect(answered.status).toBe(202);
    const response = await call.message((m) => m.id === 5);
    expect(response.result.content).toEqual([{ type: 'text', text: 'table dropped' }]);
    expect(audit.map((e) => [e.seam, e.name, e.decision, e.principal])).toEqual([
      ['tool', 'drop_table', 'ask', 'alice'],
      ['elicitation', 'drop_table', 'allow', 'alice'],
    ]);
  });
});

describe('nothing from the client can forge the principal', () => {
  const forged = { subject: 'root', scopes: ['notes:admin'], issuer: 'https://evil.example' };

  const forgeries = (token: string) =>
    [
      ['_meta.principal', callTool(11, 'whoami', {}, { _meta: { principal: forged } })],
      ['params.principal', callTool(12, 'whoami', {}, { principal: forged })],
      ['arguments.principal', callTool(13, 'whoami', { principal: forged, subject: 'root' })],
      [
        'an authorization field inside the JSON',
        {
          ...callTool(14, 'whoami', {}, { _meta: { authorization: `Bearer ${token}` } }),
          authorization: `Bearer ${token}`,
          headers: { authorization: `Bearer ${token}` },
        },
      ],
    ] as const;

  it('Streamable HTTP: alice stays alice whatever the body claims (even with bob’s token inside it)', async () => {
    const session = await t.initialize(alice);
    for (const [label, message] of forgeries(bob)) {
      resetSeen();
      audit.length = 0;
      const answer = await t.request(message, { token: alice, session });
      expect([label, answer.result.content]).toEqual([label, [{ type: 'text', text: 'alice' }]]);
      expectAlice();
      for (const event of audit) expect(event.principal).toBe('alice');
    }
  });

  it('Streamable HTTP: a hidden tool stays refused when the body claims its scope', async () => {
    const session = await t.initialize(alice);
    const response = await t.post(
      callTool(15, 'admin_notes', {}, { _meta: { principal: forged, scopes: ['notes:admin'] } }),
      { token: alice, session },
    );
    expect(response.status).toBe(403);
    await response.arrayBuffer();
    expect(seen.runs).toEqual([]);
  });

  it('HTTP+SSE pair: the same forgeries change nothing', async () => {
    const ssePair = await t.ssePair(alice);
    await ssePair.request(rpc(1, 'initialize', initializeParams()), alice);
    for (const [label, message] of forgeries(bob)) {
      resetSeen();
      const answer = await ssePair.request(message, alice);
      expect([label, answer.result.content]).toEqual([label, [{ type: 'text', text: 'alice' }]]);
      expectAlice();
    }
  });

  it('without authentication a forged principal does not make the caller anyone', async () => {
    const anonymous = await bootAuthApp();
    const events: McpAuditEvent[] = [];
    const sub = anonymous.app
      .get(McpWarden)
      .audit$.subscribe((event) => event.kind === 'decision' && events.push(event));
    try {
      const session = await anonymous.initialize();
      const answer = await anonymous.request(
        callTool(1, 'whoami', {}, { _meta: { principal: forged }, principal: forged }),
        { session },
      );
      expect(answer.result.content).toEqual([{ type: 'text', text: 'anonymous' }]);
      expect(seen.tool).toEqual([undefined]);
      expect(seen.guard).toEqual([undefined]);
      expect(seen.authorizer.find((e) => e.name === 'whoami')?.context.principal).toBeUndefined();
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event.principal).toBeUndefined();
    } finally {
      sub.unsubscribe();
      await anonymous.close();
    }
  });
});
