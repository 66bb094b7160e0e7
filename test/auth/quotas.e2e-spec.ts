import { request } from 'node:http';
import { McpWarden, type McpLimits } from '../../src/index.js';
import { until } from '../support/until.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  ACCEPT_BOTH,
  bootAuthApp,
  initializeParams,
  callTool,
  denial,
  errorBody,
  resetSeen,
  rpc,
  seen,
  SseReader,
  type AuthApp,
} from './auth-app.js';

/*
 * Quotas that protect other users are kept per principal: one caller over its
 * sessions, its request rate or its calls awaiting approval is refused while
 * another caller is not affected. Anonymous callers are keyed by address.
 */

let issuer: TestIssuer;
let t: AuthApp | undefined;

beforeAll(async () => {
  issuer = await startTestIssuer();
});
afterAll(() => issuer.close());
beforeEach(resetSeen);
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function bootWith(limits: McpLimits) {
  const app = await bootAuthApp({
    options: { limits },
    http: (base) => ({
      auth: { issuer: issuer.issuer, audience: `${base}/mcp`, jwksUri: issuer.jwksUri },
    }),
  });
  const alice = await issuer.mintToken({ aud: app.url, sub: 'alice', scope: 'notes:read' });
  const bob = await issuer.mintToken({ aud: app.url, sub: 'bob', scope: 'notes:read' });
  return { app, alice, bob };
}

/** A POST to the MCP endpoint sent from `localAddress` (fetch cannot choose it). */
function postFrom(
  localAddress: string,
  app: AuthApp,
  body: object,
): Promise<{ status: number; session?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      app.url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode!, session: res.headers['mcp-session-id'] as string }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * Asserts a 429 with a -31429 JSON-RPC error whose id is `id`: the refused
 * request's on a Streamable HTTP POST (its body was read), null on an SSE pair one.
 */
async function expectTooMany(response: Response, id: number | string | null = null) {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: { data: { retryAfterMs: number } } };
  expect(body).toEqual(errorBody(-31429, id));
  return body;
}

describe('maxSessionsPerPrincipal', () => {
  it("alice's third session → 429 while bob still gets one; closing one of alice's frees a slot", async () => {
    const { app, alice, bob } = await bootWith({ maxSessionsPerPrincipal: 2 });
    t = app;
    const first = await t.initialize(alice);
    await t.initialize(alice);
    await expectTooMany(
      await t.post(rpc(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} }), {
        token: alice,
      }),
      0,
    );
    const bobs = await t.initialize(bob);
    expect(bobs).toEqual(expect.any(String));

    const closed = await t.send('DELETE', undefined, { token: alice, session: first });
    expect(closed.status).toBe(200);
    await closed.arrayBuffer();
    expect(await t.initialize(alice)).toEqual(expect.any(String));
  });

  it("HTTP+SSE pair: alice's third stream → 429 while bob still opens one", async () => {
    const { app, alice, bob } = await bootWith({ maxSessionsPerPrincipal: 2 });
    t = app;
    await t.ssePair(alice);
    await t.ssePair(alice);
    await expectTooMany(await t.openSse(alice));
    const bobs = await t.ssePair(bob);
    expect(bobs.sessionId).toEqual(expect.any(String));
  });

  it('anonymous callers (no authentication) are held to the quota too, keyed by address', async () => {
    t = await bootAuthApp({ options: { limits: { maxSessionsPerPrincipal: 2 } } });
    await t.initialize();
    await t.initialize();
    await expectTooMany(
      await t.post(rpc(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} })),
      0,
    );
    // Another client address (still loopback) has its own quota.
    const other = await postFrom('127.0.0.2', t, rpc(0, 'initialize', initializeParams()));
    expect(other.status).toBe(200);
    expect(other.session).toEqual(expect.any(String));
  });
});

describe('callsPerSecondPerPrincipal', () => {
  /** Sends pings until one is refused (at most `max`); the refusal. */
  async function burst(send: () => Promise<Response>, max: number): Promise<Response> {
    for (let i = 0; i < max; i++) {
      const response = await send();
      if (response.status === 429) return response;
      await response.arrayBuffer();
    }
    throw new Error(`no 429 within ${max} requests`);
  }

  async function expectRateRefusal(response: Response, id: number | null = null) {
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    const body = await expectTooMany(response, id);
    expect(body.error.data.retryAfterMs).toBeGreaterThan(0);
  }

  it('Streamable HTTP: a burst over the bucket → 429 with Retry-After and -31429 data.retryAfterMs; bob is unaffected', async () => {
    const { app, alice, bob } = await bootWith({ callsPerSecondPerPrincipal: 5 });
    t = app;
    const aliceSession = await t.initialize(alice);
    const bobSession = await t.initialize(bob);
    // Two seconds' worth (10) fit in the bucket; the burst must be refused soon after.
    let n = 0;
    const refused = await burst(
      () => t!.post(rpc(++n, 'ping'), { token: alice, session: aliceSession }),
      40,
    );
    expect(n).toBeGreaterThanOrEqual(9);
    // The refused ping is the last one sent: its id is n.
    await expectRateRefusal(refused, n);
    const bobs = await t.request(rpc(1, 'ping'), { token: bob, session: bobSession });
    expect(bobs.result).toEqual({});
  });

  it('a batch larger than the bucket: 400 -32600 saying how many fit, no Retry-After; one that fits is served', async () => {
    const { app, alice } = await bootWith({ callsPerSecondPerPrincipal: 5 });
    t = app;
    // Batches are of the 2025-03-26 revision.
    const init = await t.post(
      rpc(0, 'initialize', { ...initializeParams(), protocolVersion: '2025-03-26' }),
      { token: alice },
    );
    const session = init.headers.get('mcp-session-id')!;
    await init.arrayBuffer();
    const pings = (count: number) => Array.from({ length: count }, (_, i) => rpc(i + 1, 'ping'));
    const tooLarge = await t.post(pings(11), { token: alice, session });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.headers.get('retry-after')).toBeNull();
    const body = (await tooLarge.json()) as { error: { code: number; data: unknown } };
    expect(body.error).toMatchObject({ code: -32600, data: { mostAtOnce: 10 } });
    // The initialize took one of the ten; the refused batch took none.
    const fits = await t.post(pings(9), { token: alice, session });
    expect(fits.status).toBe(200);
    expect(await fits.json()).toHaveLength(9);
  });

  it('a request refused before it is served takes its token too, in either era', async () => {
    // A bucket of one: the second refused request finds it empty.
    const limits = { callsPerSecondPerPrincipal: 0.5 };
    const twice = async (body: object, headers: Record<string, string> = {}) => {
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) {
        const response = await t!.post(body, { headers });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      return statuses;
    };
    t = await bootAuthApp({ options: { limits } });
    // A message that is neither a request nor a notification.
    expect(await twice({ jsonrpc: '2.0', id: 1 })).toEqual([400, 429]);
    await t.close();
    t = await bootAuthApp({ options: { limits } });
    // A modern request without its envelope.
    const modern = { 'mcp-protocol-version': '2026-07-28' };
    expect(await twice(rpc(1, 'tools/list'), modern)).toEqual([400, 429]);
  });

  it('HTTP+SSE pair: the same bucket refuses the burst on POST /messages; bob is unaffected', async () => {
    const { app, alice, bob } = await bootWith({ callsPerSecondPerPrincipal: 5 });
    t = app;
    const aliceSsePair = await t.ssePair(alice);
    const bobSsePair = await t.ssePair(bob);
    let n = 0;
    const refused = await burst(() => aliceSsePair.post(rpc(++n, 'ping'), alice), 40);
    expect(n).toBeGreaterThanOrEqual(9);
    await expectRateRefusal(refused);
    expect((await bobSsePair.request(rpc(1, 'ping'), bob)).result).toEqual({});
  });

  it('anonymous callers are rate limited too', async () => {
    t = await bootAuthApp({ options: { limits: { callsPerSecondPerPrincipal: 5 } } });
    const session = await t.initialize();
    let n = 0;
    const refused = await burst(() => t!.post(rpc(++n, 'ping'), { session }), 40);
    await expectRateRefusal(refused, n);
  });
});

/**
 * POSTs a call that parks on `session` for `token`, reads until its
 * elicitation/create arrives, then drops the connection (the client went away).
 */
function parkAndDrop(app: AuthApp, token: string, session: string, id: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(app.url, {
      method: 'POST',
      agent: false,
      headers: {
        accept: ACCEPT_BOTH,
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'mcp-session-id': session,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('elicitation/create')) {
          req.destroy();
          resolve();
        }
      });
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end(JSON.stringify(callTool(id, 'drop_table')));
  });
}

describe('maxPendingPerPrincipal', () => {
  it('parked calls whose streams alice dropped count against her share alone, and end with her session', async () => {
    const { app, alice, bob } = await bootWith({ maxPendingPerPrincipal: 2 });
    t = app;
    const warden = t.app.get(McpWarden);
    const a1 = await t.initialize(alice, { elicitation: {} });
    const b1 = await t.initialize(bob, { elicitation: {} });
    await parkAndDrop(t, alice, a1, 1);
    await parkAndDrop(t, alice, a1, 2);
    expect(warden.stats().pendingClientRequests).toBe(2);

    // Gone or not, her two asks are her share: a third is denied, and only hers.
    const a2 = await t.initialize(alice, { elicitation: {} });
    const third = await t.request(callTool(3, 'drop_table'), { token: alice, session: a2 });
    expect(third.result).toEqual(denial('drop_table', 'ask', 'too many calls awaiting approval'));
    const bobs = new SseReader(
      await t.post(callTool(4, 'drop_table'), { token: bob, session: b1 }),
    );
    expect((await bobs.message((m) => m.method === 'elicitation/create')).params.message).toBe(
      'Drop the whole table?',
    );

    // Ending the session she left ends its parked calls, and frees her share.
    const ended = await t.send('DELETE', undefined, { token: alice, session: a1 });
    expect(ended.status).toBe(200);
    await until(() => warden.stats().pendingClientRequests === 1, 'her parked calls ended');
    const again = new SseReader(
      await t.post(callTool(5, 'drop_table'), { token: alice, session: a2 }),
    );
    expect((await again.message((m) => m.method === 'elicitation/create')).params.message).toBe(
      'Drop the whole table?',
    );
    expect(seen.runs).toEqual([]);
  });

  it("alice's second parked ask (from a second session) is denied while bob can still be asked", async () => {
    const { app, alice, bob } = await bootWith({ maxPendingPerPrincipal: 1 });
    t = app;
    const a1 = await t.initialize(alice, { elicitation: {} });
    const a2 = await t.initialize(alice, { elicitation: {} });
    const b1 = await t.initialize(bob, { elicitation: {} });

    const parked = new SseReader(
      await t.post(callTool(1, 'drop_table'), { token: alice, session: a1 }),
    );
    const firstAsk = await parked.message((m) => m.method === 'elicitation/create');

    const second = await t.request(callTool(2, 'drop_table'), { token: alice, session: a2 });
    expect(second.result).toEqual(denial('drop_table', 'ask', 'too many calls awaiting approval'));

    const bobs = new SseReader(
      await t.post(callTool(3, 'drop_table'), { token: bob, session: b1 }),
    );
    const bobAsk = await bobs.message((m) => m.method === 'elicitation/create');
    expect(bobAsk.params.message).toBe('Drop the whole table?');

    // Both parked calls end with their owners' answers.
    for (const [ask, session, token] of [
      [firstAsk, a1, alice],
      [bobAsk, b1, bob],
    ] as const) {
      const answered = await t.post(
        { jsonrpc: '2.0', id: ask.id, result: { action: 'decline' } },
        { token, session },
      );
      expect(answered.status).toBe(202);
      await answered.arrayBuffer();
    }
    expect((await parked.message((m) => m.id === 1)).result).toEqual(
      denial('drop_table', 'ask', 'user declined'),
    );
    expect((await bobs.message((m) => m.id === 3)).result).toEqual(
      denial('drop_table', 'ask', 'user declined'),
    );
    expect(seen.runs).toEqual([]);
  });
});
