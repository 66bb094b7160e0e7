import {
  Client as ClientV2,
  DEFAULT_REQUEST_TIMEOUT_MSEC as SDK_V2_TIMEOUT,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC as SDK_V1_TIMEOUT } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { APPROVAL_PENDING_META, type McpModuleOptions } from '../../src/index.js';
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
 * An operator ask never races the client's timeout (docs/operator-approvals.md): an official
 * SDK client with its defaults (a 60 s request timeout, no progress token, no timeout reset,
 * no elicitation handler) gets "approval pending" naming the console, and the same call made
 * again once an operator approved runs once. Handshake era: the SDK v1 client, the call
 * answers after `answerWithinMs` (300 ms here). Modern era: the SDK v2 client, pinned to
 * 2026-07-28 (its only non-default), which declares no URL-mode elicitation, so the call
 * answers pending at once. The asks live 120 s, longer than the clients' timeout: a call
 * that waited for the ask's expiry would fail every test here.
 */

const PUBLIC_URL = 'https://warden.example';
const ASK_LIFETIME_MS = 120_000;

interface Caller {
  call(args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

async function handshakeCaller(url: string, token: string): Promise<Caller> {
  const client = new Client({ name: 'caller', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return {
    call: (args) => client.callTool({ name: 'purge_notes', arguments: args }),
    close: () => client.close(),
  };
}

async function modernCaller(url: string, token: string): Promise<Caller> {
  const client = new ClientV2(
    { name: 'caller', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new TransportV2(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return {
    call: (args) => client.callTool({ name: 'purge_notes', arguments: args }),
    close: () => client.close(),
  };
}

const ERAS = [
  // The handshake era waits `answerWithinMs` for an operator first.
  { era: 'handshake', connect: handshakeCaller, answerWithinMs: 300 },
  // The modern era answers at once: a bound longer than the test's timeout shows it never waits.
  { era: 'modern', connect: modernCaller, answerWithinMs: 10 * 60_000 },
];

const text = (result: any): string => result.content?.[0]?.text ?? '';

describe.each(ERAS)('an operator ask, default SDK client, $era era', (variant) => {
  let issuer: TestIssuer;
  let t: OperatorApp;
  let alice: Caller;
  let calls = 0;
  /* Each test makes its own call: asks and denies stand for their lifetime. */
  let args: Record<string, unknown>;

  async function boot(options: Partial<McpModuleOptions>): Promise<OperatorApp> {
    return bootOperatorApp(issuer, {
      elicitationTimeoutMs: ASK_LIFETIME_MS,
      approvals: {
        answerWithinMs: variant.answerWithinMs,
        console: { oidc: { clientId: 'warden-console', publicUrl: PUBLIC_URL } },
      },
      ...options,
    });
  }
  const callerOf = async (app: OperatorApp, sub: string) =>
    variant.connect(app.url, await app.token(sub));

  /** The call's answer, and the ask it recorded (or waits on). */
  async function pendingCall(caller: Caller, app = t) {
    const started = Date.now();
    const result = await caller.call(args);
    const elapsed = Date.now() - started;
    expect(result.structuredContent?.detail).toBe('approval pending');
    const id: string = result.structuredContent.approval.id;
    const ask = (await app.desk.get(id))!;
    expect(ask).toBeDefined();
    return { result, elapsed, ask };
  }

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await boot({});
  });
  afterAll(async () => {
    await t.close();
    await issuer.close();
  });
  beforeEach(async () => {
    runs.purge = 0;
    args = { scope: 'all', call: ++calls };
    alice = await callerOf(t, 'alice');
  });
  afterEach(() => alice.close());

  it('answers "approval pending" naming the console, before the client times out; the ask stays pending', async () => {
    const asked = t.nextAsk();
    const { result, elapsed, ask } = await pendingCall(alice);
    expect(ask.id).toBe((await asked).id);
    expect(elapsed).toBeLessThan(Math.min(SDK_V1_TIMEOUT, SDK_V2_TIMEOUT));
    const url = `${PUBLIC_URL}/approvals/asks/${encodeURIComponent(ask.id)}`;
    const approval = {
      status: 'pending',
      id: ask.id,
      expiresAt: new Date(ask.expiresAt).toISOString(),
      url,
    };
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(PURGE_PROMPT);
    expect(text(result)).toContain(`pending at ${url}`);
    expect(text(result)).toContain('call purge_notes again with the same arguments');
    expect(result.structuredContent).toEqual({
      error: 'authorization_required',
      tool: 'purge_notes',
      decision: 'ask',
      detail: 'approval pending',
      approval,
    });
    expect(result._meta[APPROVAL_PENDING_META]).toEqual(approval);
    expect(ask.expiresAt - ask.createdAt).toBe(ASK_LIFETIME_MS);
    expect(ask.decision).toBeUndefined();
    expect((await t.desk.pending()).asks.map((a) => a.id)).toContain(ask.id);
    expect(runs.purge).toBe(0);
  });

  it('a retry while pending answers pending again on the same ask, and records no second one', async () => {
    const first = await pendingCall(alice);
    const before = (await t.desk.pending()).total;
    const again = await pendingCall(alice);
    expect(again.ask.id).toBe(first.ask.id);
    expect((await t.desk.pending()).total).toBe(before);
    expect(runs.purge).toBe(0);
  });

  it('approved through the desk, the same call retried runs once; a second retry does not run again', async () => {
    const { ask } = await pendingCall(alice);
    const decided = await t.desk.decide(ask.id, operator(issuer, 'bob'), {
      approve: true,
      via: 'console',
    });
    expect(decided).toMatchObject({ ok: true });
    const retried = await alice.call(args);
    expect(retried.isError).toBeFalsy();
    expect(text(retried)).toBe('purged all');
    expect(runs.purge).toBe(1);
    expect(t.audit.at(-1)).toMatchObject({
      seam: 'operator',
      decision: 'allow',
      detail: 'operator approved',
      operator: 'bob',
      principal: 'alice',
    });
    // Used: the approval is gone, and the same call again is a new ask.
    expect(await t.desk.get(ask.id)).toBeUndefined();
    const third = await pendingCall(alice);
    expect(third.ask.id).not.toBe(ask.id);
    expect(runs.purge).toBe(1);
  });

  it("another caller's identical call, or the caller's call with other arguments, never rides on the approval", async () => {
    const { ask } = await pendingCall(alice);
    await t.desk.decide(ask.id, operator(issuer, 'bob'), { approve: true, via: 'api' });
    const carol = await callerOf(t, 'carol');
    try {
      const hers = await pendingCall(carol);
      expect(hers.ask.id).not.toBe(ask.id);
      expect(hers.ask.caller.subject).toBe('carol');
    } finally {
      await carol.close();
    }
    const other = await alice.call({ ...args, scope: 'everything' });
    expect(other.structuredContent.detail).toBe('approval pending');
    expect(other.structuredContent.approval.id).not.toBe(ask.id);
    expect(runs.purge).toBe(0);
    // The approval is still there for the call it was given to.
    expect(text(await alice.call(args))).toBe('purged all');
    expect(runs.purge).toBe(1);
  });

  it('a deny stays a deny: every retry until the expiry gets it, and nobody is asked again', async () => {
    const { ask } = await pendingCall(alice);
    await t.desk.decide(ask.id, operator(issuer, 'bob'), {
      approve: false,
      reason: 'no ticket',
      via: 'console',
    });
    const pendingBefore = (await t.desk.pending()).total;
    for (let i = 0; i < 2; i++) {
      const retried = await alice.call(args);
      expect(retried.isError).toBe(true);
      expect(retried.structuredContent).toEqual({
        error: 'authorization_required',
        tool: 'purge_notes',
        decision: 'ask',
        detail: 'operator denied: no ticket',
      });
    }
    expect((await t.desk.pending()).total).toBe(pendingBefore);
    expect(runs.purge).toBe(0);
  });

  it('an expired ask is gone: too late to approve, and the same call asks anew', async () => {
    const shortLived = await boot({ elicitationTimeoutMs: 1_000 });
    const caller = await callerOf(shortLived, 'alice');
    try {
      const first = await caller.call(args);
      expect(first.structuredContent.detail).toBe('approval pending');
      const ask = (await shortLived.desk.get(first.structuredContent.approval.id))!;
      await at(ask.expiresAt);
      expect(
        await shortLived.desk.decide(ask.id, operator(issuer, 'bob'), {
          approve: true,
          via: 'api',
        }),
      ).toEqual({ ok: false, problem: 'not found' });
      const again = await caller.call(args);
      expect(again.structuredContent.detail).toBe('approval pending');
      expect(again.structuredContent.approval.id).not.toBe(ask.id);
      expect(runs.purge).toBe(0);
    } finally {
      await caller.close();
      await shortLived.close();
    }
  });
});
