import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  bootAuthApp,
  callTool,
  denial,
  initializeParams,
  resetSeen,
  rpc,
  seen,
  SseReader,
  type AuthApp,
} from './auth-app.js';

/*
 * A session belongs to the principal that created it: presented with another
 * principal's valid token it is not found (exactly like an unknown id), and
 * approvals asked on it cannot be answered from another principal's session.
 */

let issuer: TestIssuer;
let t: AuthApp;
let alice: string;
let bob: string;

beforeAll(async () => {
  issuer = await startTestIssuer();
  t = await bootAuthApp({
    http: (base) => ({
      auth: { issuer: issuer.issuer, audience: `${base}/mcp`, jwksUri: issuer.jwksUri },
    }),
  });
  alice = await issuer.mintToken({ aud: t.url, sub: 'alice', scope: 'notes:read' });
  bob = await issuer.mintToken({ aud: t.url, sub: 'bob', scope: 'notes:read' });
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});
beforeEach(resetSeen);

/** Status, content type and body of a response, to compare two refusals. */
async function refusal(response: Response) {
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: await response.json(),
  };
}

const UNKNOWN = 'no-such-session-0123456789abcdef';

describe('Streamable HTTP sessions are bound to their principal', () => {
  it("alice's session id with bob's token → 404 on POST, GET and DELETE, the same answer as an unknown id", async () => {
    const session = await t.initialize(alice);
    const cases = [
      ['POST', callTool(1, 'whoami')],
      ['GET', undefined],
      ['DELETE', undefined],
    ] as const;
    for (const [method, body] of cases) {
      const stolen = await refusal(await t.send(method, body, { token: bob, session }));
      const unknown = await refusal(await t.send(method, body, { token: bob, session: UNKNOWN }));
      expect(stolen.status).toBe(404);
      // The POST's body was read, so its refusal names the request (1); GET and DELETE have none.
      const id = method === 'POST' ? 1 : null;
      expect(stolen.body).toMatchObject({ jsonrpc: '2.0', id, error: expect.anything() });
      expect(stolen).toEqual(unknown);
    }
    expect(seen.runs).toEqual([]);
    // Bob's DELETE ended nothing: the session still serves alice.
    const answer = await t.request(callTool(2, 'whoami'), { token: alice, session });
    expect(answer.result.content).toEqual([{ type: 'text', text: 'alice' }]);
  });

  it("an approval answer on bob's session (or with bob's token on alice's) for alice's parked call is ignored", async () => {
    const aliceSession = await t.initialize(alice, { elicitation: {} });
    const bobSession = await t.initialize(bob, { elicitation: {} });
    const call = new SseReader(
      await t.post(callTool(41, 'drop_table'), { token: alice, session: aliceSession }),
    );
    const ask = await call.message((m) => m.method === 'elicitation/create');
    const approval = {
      jsonrpc: '2.0',
      id: ask.id,
      result: { action: 'accept', content: { approve: true } },
    };

    const onBobs = await t.post(approval, { token: bob, session: bobSession });
    expect(onBobs.status).toBe(202);
    expect(await onBobs.text()).toBe('');
    const onAlices = await t.post(approval, { token: bob, session: aliceSession });
    expect(onAlices.status).toBe(404);
    await onAlices.arrayBuffer();

    const own = await t.post(
      { jsonrpc: '2.0', id: ask.id, result: { action: 'decline' } },
      { token: alice, session: aliceSession },
    );
    expect(own.status).toBe(202);
    await own.arrayBuffer();
    const response = await call.message((m) => m.id === 41);
    expect(response.result).toEqual(denial('drop_table', 'ask', 'user declined'));
    expect(seen.runs).toEqual([]);
  });
});

describe('HTTP+SSE pair sessions are bound to their principal', () => {
  it("POST /messages?sessionId=<alice's> with bob's token → 404, the same answer as an unknown id", async () => {
    const ssePair = await t.ssePair(alice);
    const stolen = await refusal(await ssePair.post(callTool(1, 'whoami'), bob));
    const unknown = await refusal(
      await t.postMessage(`/messages?sessionId=${UNKNOWN}`, callTool(1, 'whoami'), bob),
    );
    expect(stolen.status).toBe(404);
    expect(stolen).toEqual(unknown);
    // Nothing reached alice's stream; her own next request is the first thing answered.
    const answer = await ssePair.request(callTool(2, 'whoami'), alice);
    expect(answer.result.content).toEqual([{ type: 'text', text: 'alice' }]);
    expect(ssePair.stream.messages.map((m) => m.id)).toEqual([2]);
    expect(seen.runs).toEqual(['whoami']);
  });

  it("an approval answer from bob's SSE pair session for alice's parked call is ignored", async () => {
    const aliceSsePair = await t.ssePair(alice);
    const bobSsePair = await t.ssePair(bob);
    await aliceSsePair.request(rpc(1, 'initialize', initializeParams({ elicitation: {} })), alice);
    await bobSsePair.request(rpc(1, 'initialize', initializeParams({ elicitation: {} })), bob);

    const parked = aliceSsePair.stream.message((m) => m.id === 42);
    const posted = await aliceSsePair.post(callTool(42, 'drop_table'), alice);
    expect(posted.status).toBe(202);
    await posted.arrayBuffer();
    const ask = await aliceSsePair.stream.message((m) => m.method === 'elicitation/create');
    const approval = {
      jsonrpc: '2.0',
      id: ask.id,
      result: { action: 'accept', content: { approve: true } },
    };

    const fromBob = await bobSsePair.post(approval, bob);
    expect(fromBob.status).toBe(202);
    await fromBob.arrayBuffer();
    const onAlices = await aliceSsePair.post(approval, bob);
    expect(onAlices.status).toBe(404);
    await onAlices.arrayBuffer();

    const own = await aliceSsePair.post(
      { jsonrpc: '2.0', id: ask.id, result: { action: 'decline' } },
      alice,
    );
    expect(own.status).toBe(202);
    await own.arrayBuffer();
    expect((await parked).result).toEqual(denial('drop_table', 'ask', 'user declined'));
    expect(seen.runs).toEqual([]);
  });
});
