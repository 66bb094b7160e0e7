import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpAuditEvent } from '../../src/index.js';
import { deferred, type Deferred } from '../support/deferred.js';
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
 * Four-eyes approvals in the modern era (2026-07-28, MRTR), with the official
 * SDK v2 client: the call answers input-required with a URL-mode notice that
 * an operator must approve; the client's answer to it approves nothing; the
 * retry succeeds once an operator approved through the desk.
 */

const MODERN = '2026-07-28';

let issuer: TestIssuer;
let t: OperatorApp;
let client: Client;
/** Each URL-mode notice the client was given, and how the test answers it. */
let notices: { params: any; answer: Deferred<{ action: 'accept' | 'decline' | 'cancel' }> }[];
let onNotice: () => void;
/** Every tools/call body the client sent, with its headers. */
let sent: { body: any; headers: Headers }[];

const recordingFetch: typeof fetch = async (input, init) => {
  if (init?.method === 'POST' && typeof init.body === 'string') {
    const body = JSON.parse(init.body);
    if (body.method === 'tools/call') sent.push({ body, headers: new Headers(init.headers) });
  }
  return fetch(input, init);
};

async function connect(token: string): Promise<Client> {
  const sdk = new Client(
    { name: 'caller', version: '2.0.0' },
    { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN } } },
  );
  sdk.setRequestHandler('elicitation/create', async (request) => {
    const answer = deferred<{ action: 'accept' | 'decline' | 'cancel' }>();
    notices.push({ params: request.params, answer });
    onNotice();
    return answer.promise;
  });
  await sdk.connect(
    new StreamableHTTPClientTransport(new URL(t.url), {
      fetch: recordingFetch,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return sdk;
}

/** Resolves when the client has been given `count` notices in all. */
function noticeCount(count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (notices.length >= count) resolve();
    };
    onNotice = check;
    check();
  });
}

/**
 * Each tool seam decision, and what names it (`of`): the operator's steps and the outcome. The
 * operator's first ask is left out: it names the first request's decision.
 */
function storyOf(events: McpAuditEvent[]): [string, string[]][] {
  return events
    .filter((e) => e.kind === 'decision' && e.seam === 'tool')
    .map((decision) => [
      `tool ${decision.decision}`,
      events
        .filter((e) => e.of === decision.id && !(e.seam === 'operator' && e.decision === 'ask'))
        .map((e) => (e.kind === 'outcome' ? `outcome ${e.outcome}` : `${e.seam} ${e.decision}`)),
    ]);
}

/* Each test makes its own call: a denied ask stands until its expiry, answering the same call. */
let calls = 0;
const purge = () =>
  client.callTool({ name: 'purge_notes', arguments: { scope: 'all', call: ++calls } });
const text = (result: any) => result.content?.[0]?.text;

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
  notices = [];
  sent = [];
  onNotice = () => undefined;
  client = await connect(await t.token('alice'));
});
afterEach(() => client.close());

describe('operator approvals, modern era', () => {
  it('approve on retry: the notice is URL-mode, and the retry after an approval runs the tool once', async () => {
    const asked = t.nextAsk();
    const result = purge();
    const ask = await asked;
    await noticeCount(1);
    expect(notices[0].params).toMatchObject({
      mode: 'url',
      message: expect.stringContaining('An operator must approve'),
      url: `urn:mcp-warden:approval:${ask.id}`,
    });
    expect(notices[0].params.message).toContain(PURGE_PROMPT);
    await t.desk.decide(ask.id, operator(issuer, 'bob'), { approve: true, via: 'api' });
    notices[0].answer.resolve({ action: 'accept' });
    expect(text(await result)).toBe('purged all');
    expect(runs.purge).toBe(1);
    expect(
      t.audit.filter((e) => e.seam === 'operator').map((e) => [e.decision, e.detail, e.operator]),
    ).toEqual([
      ['ask', PURGE_PROMPT, undefined],
      ['allow', 'operator approved via api', 'bob'],
      ['allow', 'operator approved', 'bob'],
    ]);
    // Two requests, each decided on the tool seam: the first parks the ask, the operator's
    // decision at the desk names it; the retry takes the approval and runs. Every later record
    // names the decision of its own request.
    expect(storyOf(t.events)).toEqual([
      ['tool ask', ['operator allow']],
      ['tool ask', ['operator allow', 'outcome ok']],
    ]);
    expect(t.events.filter((e) => e.seam === 'operator')[0]!.of).toBe(t.events[0]!.id);
    // Used: the record is gone.
    expect(await t.desk.get(ask.id)).toBeUndefined();
  });

  it("pending retry: the caller's own accept approves nothing; a fresh input-required names the same ask", async () => {
    const asked = t.nextAsk();
    const result = purge();
    const ask = await asked;
    await noticeCount(1);
    notices[0].answer.resolve({ action: 'accept' });
    await noticeCount(2);
    expect(runs.purge).toBe(0);
    expect(notices[1].params.url).toBe(`urn:mcp-warden:approval:${ask.id}`);
    // Only one ask was recorded, and it is still pending.
    expect((await t.desk.pending()).asks.map((a) => a.id)).toEqual([ask.id]);
    const states = sent.map((s) => s.body.params.requestState).filter(Boolean);
    expect(states).toHaveLength(1);
    await t.desk.decide(ask.id, operator(issuer, 'bob'), { approve: true, via: 'api' });
    notices[1].answer.resolve({ action: 'accept' });
    expect(text(await result)).toBe('purged all');
    expect(runs.purge).toBe(1);
    const all = sent.map((s) => s.body.params.requestState).filter(Boolean);
    expect(new Set(all).size).toBe(2);
  });

  it('deny: the retry answers the tool-deny result with "operator denied: <reason>"', async () => {
    const asked = t.nextAsk();
    const result = purge();
    const ask = await asked;
    await noticeCount(1);
    await t.desk.decide(ask.id, operator(issuer, 'bob'), {
      approve: false,
      reason: 'ticket missing',
      via: 'api',
    });
    notices[0].answer.resolve({ action: 'accept' });
    const answer: any = await result;
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({
      decision: 'ask',
      detail: 'operator denied: ticket missing',
    });
    expect(runs.purge).toBe(0);
    // No outcome: the tool never ran. The desk's record of the deny names the request that
    // asked, the call's own the retry's decision.
    expect(storyOf(t.events)).toEqual([
      ['tool ask', ['operator deny']],
      ['tool ask', ['operator deny']],
    ]);
    expect(
      t.events.filter((e) => e.seam === 'operator' && e.decision === 'deny').map((e) => e.detail),
    ).toEqual(['operator denied via api: ticket missing', 'operator denied: ticket missing']);
    for (const e of t.events.filter((e) => e.seam === 'operator' && e.decision === 'deny')) {
      expect(e.operator).toBe('bob');
    }
  });

  it('timeout: a retry after the ask expired is "approval timed out"', async () => {
    const asked = t.nextAsk();
    const result = purge();
    const ask = await asked;
    await noticeCount(1);
    await at(ask.expiresAt);
    notices[0].answer.resolve({ action: 'accept' });
    const answer: any = await result;
    expect(answer.structuredContent).toMatchObject({
      decision: 'ask',
      detail: 'approval timed out',
    });
    expect(runs.purge).toBe(0);
  });

  it('replayed state: presenting the approving retry again is "approval already used", and the tool ran once', async () => {
    const asked = t.nextAsk();
    const result = purge();
    const ask = await asked;
    await noticeCount(1);
    await t.desk.decide(ask.id, operator(issuer, 'bob'), { approve: true, via: 'api' });
    notices[0].answer.resolve({ action: 'accept' });
    expect(text(await result)).toBe('purged all');
    const retry = sent.at(-1)!;
    expect(retry.body.params.requestState).toEqual(expect.any(String));
    const replay = await fetch(t.url, {
      method: 'POST',
      headers: retry.headers,
      body: JSON.stringify({ ...retry.body, id: 'replay' }),
    });
    const body = JSON.parse(
      await replay.text().then((raw) => raw.replace(/^(event|id|data): ?/gm, '').trim() || '{}'),
    );
    expect(body.result.structuredContent).toMatchObject({
      decision: 'ask',
      detail: 'approval already used',
    });
    expect(runs.purge).toBe(1);
  });

  it("the caller cannot approve its own ask through the desk ('own call')", async () => {
    const asked = t.nextAsk();
    const result = purge();
    const ask = await asked;
    await noticeCount(1);
    expect(
      await t.desk.decide(ask.id, operator(issuer, 'alice'), { approve: true, via: 'api' }),
    ).toEqual({
      ok: false,
      problem: 'own call',
    });
    await t.desk.decide(ask.id, operator(issuer, 'bob'), {
      approve: false,
      reason: 'no',
      via: 'api',
    });
    notices[0].answer.resolve({ action: 'accept' });
    expect(((await result) as any).structuredContent.detail).toBe('operator denied: no');
  });
});
