import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { deferred } from '../support/deferred.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  at,
  bootOperatorApp,
  operator,
  PURGE_PROMPT,
  runs,
  type OperatorApp,
} from './operator-app.js';

/*
 * Four-eyes approvals in the handshake era (docs/operator-approvals.md), with the official
 * SDK v1 client: an operator ask parks the call, progress tells the client
 * it waits, and an operator's decision through the desk ends it.
 */

let issuer: TestIssuer;
let t: OperatorApp;
let client: Client;

async function connect(token: string): Promise<Client> {
  // No elicitation capability: an operator ask does not need one.
  const sdk = new Client({ name: 'caller', version: '1.0.0' }, { capabilities: {} });
  await sdk.connect(
    new StreamableHTTPClientTransport(new URL(t.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return sdk;
}

/* Each test makes its own call: a denied ask stands until its expiry, answering the same call. */
let calls = 0;

/** Calls purge_notes; resolves `waiting` at the first progress notification. */
function purge() {
  const waiting = deferred<{ progress: number; message?: string }>();
  const args = { scope: 'all', call: ++calls };
  const result = client.callTool({ name: 'purge_notes', arguments: args }, undefined, {
    onprogress: (progress) => waiting.resolve(progress),
  });
  return { result, waiting: waiting.promise };
}

beforeAll(async () => {
  issuer = await startTestIssuer();
  t = await bootOperatorApp(issuer, { elicitationTimeoutMs: 1_500 });
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});
beforeEach(async () => {
  runs.purge = 0;
  t.audit.length = 0;
  t.events.length = 0;
  client = await connect(await t.token('alice'));
});
afterEach(() => client.close());

const denied = (detail: string) => {
  const structuredContent = {
    error: 'authorization_required',
    tool: 'purge_notes',
    decision: 'ask',
    detail,
  };
  return {
    content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
    isError: true,
    structuredContent,
  };
};

describe('operator approvals, handshake era', () => {
  it('approve: the parked call runs the tool once, and the audit names the operator', async () => {
    const asked = t.nextAsk();
    const call = purge();
    const ask = await asked;
    expect(ask).toMatchObject({
      tool: 'purge_notes',
      prompt: PURGE_PROMPT,
      caller: { subject: 'alice', issuer: issuer.issuer },
      preview: `{"scope":"all","call":${calls}}`,
    });
    expect(await call.waiting).toMatchObject({
      progress: 1,
      message: expect.stringContaining('operator'),
    });
    expect(runs.purge).toBe(0);
    const decided = await t.desk.decide(ask.id, operator(issuer, 'bob'), {
      approve: true,
      via: 'api',
    });
    expect(decided).toMatchObject({
      ok: true,
      record: { decision: { operator: 'bob', approved: true } },
    });
    expect((await call.result).content).toEqual([{ type: 'text', text: 'purged all' }]);
    expect(runs.purge).toBe(1);
    expect(
      t.audit.filter((e) => e.seam === 'operator').map((e) => [e.decision, e.detail, e.operator]),
    ).toEqual([
      ['ask', PURGE_PROMPT, undefined],
      ['allow', 'operator approved via api', 'bob'],
      ['allow', 'operator approved', 'bob'],
    ]);
    // One call's story: the seam's ask, the operator's steps and the run's outcome all name it.
    const decision = t.events.find((e) => e.kind === 'decision' && e.seam === 'tool')!;
    expect(decision).toMatchObject({ decision: 'ask', principal: 'alice', issuer: issuer.issuer });
    expect(
      t.events
        .filter((e) => e.of === decision.id)
        .map((e) => [e.kind, e.seam, e.outcome ?? e.decision]),
    ).toEqual([
      ['decision', 'operator', 'ask'],
      // The desk's record of the approval, then the call's own as it takes it.
      ['decision', 'operator', 'allow'],
      ['decision', 'operator', 'allow'],
      ['outcome', 'tool', 'ok'],
    ]);
    // The call ended: its record left the store.
    expect(await t.desk.get(ask.id)).toBeUndefined();
  });

  it('deny: the tool-deny result with decision "ask" and detail "operator denied: <reason>"', async () => {
    const asked = t.nextAsk();
    const call = purge();
    const ask = await asked;
    await call.waiting;
    expect(
      await t.desk.decide(ask.id, operator(issuer, 'bob'), { approve: false, via: 'api' }),
    ).toEqual({ ok: false, problem: 'reason required' });
    await t.desk.decide(ask.id, operator(issuer, 'bob'), {
      approve: false,
      reason: 'not during business hours',
      via: 'console',
    });
    expect(await call.result).toEqual(denied('operator denied: not during business hours'));
    expect(runs.purge).toBe(0);
    const of = t.events.find((e) => e.kind === 'decision' && e.seam === 'tool')!.id;
    // The desk's record as the operator decided, then the call's as it took the deny.
    expect(t.audit.slice(-2)).toMatchObject([
      {
        seam: 'operator',
        decision: 'deny',
        detail: 'operator denied via console: not during business hours',
      },
      { seam: 'operator', decision: 'deny', detail: 'operator denied: not during business hours' },
    ]);
    for (const record of t.audit.slice(-2)) {
      expect(record).toMatchObject({ operator: 'bob', principal: 'alice', of });
    }
    // Denied: the tool never ran, so no outcome.
    expect(t.events.filter((e) => e.kind === 'outcome')).toEqual([]);
  });

  it('no decision before elicitationTimeoutMs: detail "approval timed out"', async () => {
    const asked = t.nextAsk();
    const call = purge();
    const ask = await asked;
    expect(await call.result).toEqual(denied('approval timed out'));
    expect(Date.now()).toBeGreaterThanOrEqual(ask.expiresAt);
    expect(runs.purge).toBe(0);
    // Too late to decide now.
    expect(
      await t.desk.decide(ask.id, operator(issuer, 'bob'), { approve: true, via: 'api' }),
    ).toEqual({ ok: false, problem: 'not found' });
  });

  it('the caller cannot approve its own ask through the desk (own call), even holding the scope', async () => {
    const asked = t.nextAsk();
    const call = purge();
    const ask = await asked;
    const self = operator(issuer, 'alice');
    expect(await t.desk.decide(ask.id, self, { approve: true, via: 'api' })).toEqual({
      ok: false,
      problem: 'own call',
    });
    // The same subject from another issuer is another person.
    const other = { ...self, issuer: 'https://other.example' };
    expect(await t.desk.decide(ask.id, other, { approve: true, via: 'api' })).toMatchObject({
      ok: true,
    });
    expect((await call.result).content).toEqual([{ type: 'text', text: 'purged all' }]);
  });

  it('an operator without the approver scope is refused (not an approver)', async () => {
    const asked = t.nextAsk();
    const call = purge();
    const ask = await asked;
    const noScope = operator(issuer, 'mallory', ['notes:write']);
    expect(await t.desk.decide(ask.id, noScope, { approve: true, via: 'api' })).toEqual({
      ok: false,
      problem: 'not an approver',
    });
    expect((await t.desk.get(ask.id))?.decision).toBeUndefined();
    await t.desk.decide(ask.id, operator(issuer, 'bob'), {
      approve: false,
      reason: 'no',
      via: 'api',
    });
    expect(await call.result).toEqual(denied('operator denied: no'));
  });

  it('the first decision wins: a later one is refused and changes nothing', async () => {
    const asked = t.nextAsk();
    const call = purge();
    const ask = await asked;
    const [first, second] = await Promise.all([
      t.desk.decide(ask.id, operator(issuer, 'bob'), {
        approve: false,
        reason: 'first',
        via: 'api',
      }),
      t.desk.decide(ask.id, operator(issuer, 'carol'), { approve: true, via: 'api' }),
    ]);
    expect(first).toMatchObject({ ok: true });
    expect(second).toEqual({ ok: false, problem: 'already decided' });
    expect(await call.result).toEqual(denied('operator denied: first'));
    expect(runs.purge).toBe(0);
  });

  it('a page of pending asks lists the waiting call until it ends', async () => {
    const asked = t.nextAsk();
    const call = purge();
    const ask = await asked;
    const page = await t.desk.pending();
    expect(page.asks.map((a) => a.id)).toEqual([ask.id]);
    expect(page.total).toBe(1);
    await t.desk.decide(ask.id, operator(issuer, 'bob'), { approve: true, via: 'api' });
    await call.result;
    expect((await t.desk.pending()).total).toBe(0);
  });

  it('the deadline is the ask expiry', async () => {
    const asked = t.nextAsk();
    const call = purge();
    const ask = await asked;
    expect(ask.expiresAt - ask.createdAt).toBe(1_500);
    await at(ask.expiresAt);
    expect(await call.result).toEqual(denied('approval timed out'));
  });
});
