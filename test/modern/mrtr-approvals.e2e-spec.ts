import { jest } from '@jest/globals';
import type { Subscription } from 'rxjs';
import { McpWarden, type McpAuditEvent } from '../../src/index.js';
import { HTTP_VARIANTS, type HttpTestApp } from '../support/http-app.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  approvalQuestion,
  bootModernApp,
  denial,
  ELICIT,
  modernMessage,
  policy,
  postModern,
  readJson,
  PURGE_PROMPT,
  resetFixture,
  runs,
  SERVER_INFO_KEY,
  tamper,
  WIPE_PROMPT,
} from './modern-app.js';

/*
 * Approvals in the modern era (docs/protocol-revisions.md), raw fetch: an `ask` on a modern
 * tools/call answers input_required with the approval question and a sealed
 * requestState; only the retry that carries an approving answer and a valid
 * state runs the tool, once. A state cannot be forged, tampered with,
 * replayed, moved to another caller, tool or arguments, or used after it
 * expired; a deny on the retry wins.
 */

const SERVER = { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } };
const APPROVE = { action: 'accept', content: { approve: true } };

type Args = Record<string, unknown>;

/** The client side of one approval: the first call, and retries. */
function approvals(t: () => HttpTestApp, headers: () => Record<string, string> = () => ({})) {
  let id = 0;
  const call = async (params: Args, capabilities: object = ELICIT): Promise<any> => {
    const response = await postModern(
      t(),
      modernMessage(++id, 'tools/call', params, capabilities),
      headers(),
    );
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body.id).toBe(id);
    return body.result;
  };
  return {
    /** The first call: its input-required result's state (the question is checked). */
    async ask(tool = 'purge', args: Args = {}, prompt = PURGE_PROMPT): Promise<string> {
      const result = await call({ name: tool, arguments: args });
      expect(result).toEqual({
        resultType: 'input_required',
        inputRequests: { approval: approvalQuestion(tool, prompt) },
        requestState: expect.any(String),
      });
      return result.requestState;
    },
    /** A retry with `answer` (if any) and `state` (if any). */
    retry(tool: string, args: Args, answer: unknown, state: unknown): Promise<any> {
      const params: Args = { name: tool, arguments: args };
      if (answer !== undefined) params.inputResponses = { approval: answer };
      if (state !== undefined) params.requestState = state;
      return call(params);
    },
    call,
  };
}

const denied = (tool: string, detail: string, decision: 'ask' | 'deny' = 'ask') => ({
  ...denial(tool, decision, detail),
  resultType: 'complete',
  _meta: SERVER,
});
const ran = (text: string) => ({
  content: [{ type: 'text', text }],
  resultType: 'complete',
  _meta: SERVER,
});

describe.each(HTTP_VARIANTS)('modern approvals (%s)', (variant) => {
  let t: HttpTestApp;
  let audit: McpAuditEvent[];
  let auditing: Subscription;
  const client = approvals(() => t);

  beforeAll(async () => {
    t = await bootModernApp(variant);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    resetFixture();
    audit = [];
    auditing = t.app
      .get(McpWarden)
      .audit$.subscribe((event) => event.kind === 'decision' && audit.push(event));
  });
  afterEach(() => auditing.unsubscribe());

  describe('the answer', () => {
    it('approve: the retry with the approving answer and the state runs the tool exactly once', async () => {
      const state = await client.ask('purge', { scope: 'all' });
      expect(runs.purge).toBe(0);
      expect(await client.retry('purge', { scope: 'all' }, APPROVE, state)).toEqual(
        ran('purged all'),
      );
      expect(runs.purge).toBe(1);
      expect(audit.map((e) => [e.seam, e.name, e.decision, e.detail])).toEqual([
        ['tool', 'purge', 'ask', PURGE_PROMPT],
        ['tool', 'purge', 'ask', PURGE_PROMPT],
        ['elicitation', 'purge', 'allow', 'user approved'],
      ]);
    });

    it.each([
      ['decline', 'user declined', { action: 'decline' }],
      ['cancel', 'user cancelled', { action: 'cancel' }],
      [
        'accept with approve: false',
        'user did not approve',
        { action: 'accept', content: { approve: false } },
      ],
      ['accept without content', 'user did not approve', { action: 'accept' }],
    ])('%s: the deny result with detail "%s"', async (_name, detail, answer) => {
      const state = await client.ask();
      expect(await client.retry('purge', {}, answer, state)).toEqual(denied('purge', detail));
      expect(runs.purge).toBe(0);
    });

    it('a retry without inputResponses gets a fresh input_required with a new state', async () => {
      const state = await client.ask();
      const again = await client.retry('purge', {}, undefined, state);
      expect(again).toEqual({
        resultType: 'input_required',
        inputRequests: { approval: approvalQuestion('purge', PURGE_PROMPT) },
        requestState: expect.any(String),
      });
      expect(again.requestState).not.toBe(state);
      // The fresh state is the one that now approves.
      expect(await client.retry('purge', {}, APPROVE, again.requestState)).toEqual(ran('purged'));
      expect(runs.purge).toBe(1);
    });

    it('an approving answer without any state approves nothing: the question is asked again', async () => {
      const result = await client.retry('purge', {}, APPROVE, undefined);
      expect(result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { approval: approvalQuestion('purge', PURGE_PROMPT) },
      });
      expect(runs.purge).toBe(0);
    });

    it('without the elicitation capability the ask is the cannot-be-asked deny (detail = the prompt)', async () => {
      const result = await client.call({ name: 'purge', arguments: {} }, {});
      expect(result).toEqual(denied('purge', PURGE_PROMPT));
      expect(runs.purge).toBe(0);
    });
  });

  describe('the state', () => {
    it('forged (a random string): approval state invalid', async () => {
      await client.ask();
      const forged = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..bm9wZQ.bm9wZQ.bm9wZQ';
      for (const state of [forged, 'not-a-state', 42]) {
        expect(await client.retry('purge', {}, APPROVE, state)).toEqual(
          denied('purge', 'approval state invalid'),
        );
      }
      expect(runs.purge).toBe(0);
    });

    it('tampered (one character changed): approval state invalid', async () => {
      const state = await client.ask();
      expect(await client.retry('purge', {}, APPROVE, tamper(state))).toEqual(
        denied('purge', 'approval state invalid'),
      );
      expect(runs.purge).toBe(0);
    });

    it('replayed (the same state twice): the second use is approval already used', async () => {
      const state = await client.ask();
      expect(await client.retry('purge', {}, APPROVE, state)).toEqual(ran('purged'));
      expect(await client.retry('purge', {}, APPROVE, state)).toEqual(
        denied('purge', 'approval already used'),
      );
      expect(runs.purge).toBe(1);
    });

    it("another tool's state (purge's, presented with wipe): approval state invalid", async () => {
      const state = await client.ask();
      expect(await client.retry('wipe', {}, APPROVE, state)).toEqual(
        denied('wipe', 'approval state invalid'),
      );
      expect([runs.purge, runs.wipe]).toEqual([0, 0]);
      // And the other way round.
      const wipeState = await client.ask('wipe', {}, WIPE_PROMPT);
      expect(await client.retry('purge', {}, APPROVE, wipeState)).toEqual(
        denied('purge', 'approval state invalid'),
      );
    });

    it("other arguments' state: approval state invalid", async () => {
      const state = await client.ask('purge', { scope: 'cache' });
      expect(await client.retry('purge', { scope: 'everything' }, APPROVE, state)).toEqual(
        denied('purge', 'approval state invalid'),
      );
      expect(runs.purge).toBe(0);
    });

    it('the same arguments in another key order are the same arguments (RFC 8785 digest)', async () => {
      const state = await client.ask('purge', { scope: 'cache', depth: { max: 2, min: 1 } });
      const reordered = { depth: { min: 1, max: 2 }, scope: 'cache' };
      expect(await client.retry('purge', reordered, APPROVE, state)).toEqual(ran('purged cache'));
      expect(runs.purge).toBe(1);
    });

    it("a handler input's state (greet's) cannot approve a tool: approval state invalid", async () => {
      const greet = await client.call({ name: 'greet', arguments: {} });
      expect(greet.resultType).toBe('input_required');
      expect(await client.retry('purge', {}, APPROVE, greet.requestState)).toEqual(
        denied('purge', 'approval state invalid'),
      );
    });
  });

  describe('the seam decides again on the retry', () => {
    it('deny on the retry wins over a valid state and an approving answer', async () => {
      const state = await client.ask();
      policy.purge = 'deny';
      expect(await client.retry('purge', {}, APPROVE, state)).toEqual(
        denied('purge', 'purge is off', 'deny'),
      );
      expect(runs.purge).toBe(0);
    });

    it('allow on the retry runs the tool (no approval needed any more)', async () => {
      const state = await client.ask();
      policy.purge = 'allow';
      expect(await client.retry('purge', {}, undefined, state)).toEqual(ran('purged'));
      expect(runs.purge).toBe(1);
    });
  });
});

describe.each(HTTP_VARIANTS)(
  'modern approvals past their expiry (%s; one app per test)',
  (variant) => {
    let t: HttpTestApp;
    const client = approvals(() => t);
    const realNow = Date.now;

    /** Moves the clock `ms` ahead of real time (Date.now is what the state's expiry is read from). */
    const advance = (ms: number) =>
      jest.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);

    beforeEach(async () => {
      resetFixture();
      t = await bootModernApp(variant);
    });
    afterEach(async () => {
      jest.restoreAllMocks();
      await t.close();
    });

    it('expired: approval expired', async () => {
      const state = await client.ask();
      // Past the default elicitationTimeoutMs (60 s) without waiting for it.
      advance(60_001);
      expect(await client.retry('purge', {}, APPROVE, state)).toEqual(
        denied('purge', 'approval expired'),
      );
      expect(runs.purge).toBe(0);
    });

    it('just before expiry the state is still accepted', async () => {
      const state = await client.ask();
      advance(59_000);
      expect(await client.retry('purge', {}, APPROVE, state)).toEqual(ran('purged'));
      expect(runs.purge).toBe(1);
    });

    it('a wall clock stepped back afterwards (as NTP may) does not lock the caller out', async () => {
      const state = await client.ask();
      advance(60_001);
      expect(await client.retry('purge', {}, APPROVE, state)).toEqual(
        denied('purge', 'approval expired'),
      );
      jest.restoreAllMocks();
      // Real time again, a minute "earlier" than the last request: the next call is asked, and
      // its approval then runs the tool, once.
      const fresh = await client.ask();
      expect(await client.retry('purge', {}, APPROVE, fresh)).toEqual(ran('purged'));
      expect(runs.purge).toBe(1);
    });
  },
);

describe('modern approvals are bound to the principal (two real principals, oidc-provider)', () => {
  const AUDIENCE = 'https://warden.test/mcp';
  let issuer: TestIssuer;
  let t: HttpTestApp;
  let alice: string;
  let bob: string;
  let token: string;
  const client = approvals(
    () => t,
    () => ({ authorization: `Bearer ${token}` }),
  );

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await bootModernApp('express', {
      http: { auth: { issuer: issuer.issuer, audience: AUDIENCE, jwksUri: issuer.jwksUri } },
    });
    alice = await issuer.mintToken({ aud: AUDIENCE, sub: 'alice' });
    bob = await issuer.mintToken({ aud: AUDIENCE, sub: 'bob' });
  });
  afterAll(async () => {
    await t.close();
    await issuer.close();
  });
  beforeEach(() => resetFixture());

  it("alice's state presented by bob: approval state invalid; alice's own retry approves", async () => {
    token = alice;
    const state = await client.ask();
    token = bob;
    expect(await client.retry('purge', {}, APPROVE, state)).toEqual(
      denied('purge', 'approval state invalid'),
    );
    expect(runs.purge).toBe(0);
    token = alice;
    const fresh = await client.ask();
    expect(await client.retry('purge', {}, APPROVE, fresh)).toEqual(ran('purged'));
    expect(runs.purge).toBe(1);
  });

  it('no token: 401 before any round starts', async () => {
    const response = await postModern(
      t,
      modernMessage(1, 'tools/call', { name: 'purge', arguments: {} }, ELICIT),
    );
    expect(response.status).toBe(401);
    expect(await readJson(response)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: expect.any(Number) },
    });
  });
});
