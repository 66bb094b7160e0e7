import type { IncomingMessage } from 'node:http';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  bootAuthApp,
  callTool,
  errorBody,
  parseChallenge,
  resetSeen,
  rpc,
  seen,
  type AuthApp,
} from './auth-app.js';

/*
 * Every way a request can fail to authenticate ends the same way, on every
 * MCP route: 401, a Bearer challenge naming the protected resource metadata,
 * a JSON-RPC error body, and nothing run.
 */

let issuer: TestIssuer;

beforeAll(async () => {
  issuer = await startTestIssuer();
});
afterAll(() => issuer.close());
beforeEach(resetSeen);

/** Asserts the 401 refusal: challenge (with `error`/`scope` as expected), JSON-RPC body. */
async function expect401(
  response: Response,
  prm: string,
  expected: { error?: string; scope?: string } = {},
): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const challenge = parseChallenge(response.headers.get('www-authenticate'));
  expect(challenge.resource_metadata).toBe(prm);
  expect(challenge.error).toBe(expected.error);
  expect(challenge.scope).toBe(expected.scope);
  expect(await response.json()).toEqual(errorBody());
}

describe('bearer refusals (401)', () => {
  let t: AuthApp;
  let audience: string;
  let prm: string;
  let good: string;

  beforeAll(async () => {
    t = await bootAuthApp({
      http: (base) => ({
        auth: { issuer: issuer.issuer, audience: `${base}/mcp`, jwksUri: issuer.jwksUri },
      }),
    });
    audience = t.url;
    prm = `${t.base}/.well-known/oauth-protected-resource/mcp`;
    good = await issuer.mintToken({ aud: audience, sub: 'alice', scope: 'notes:read' });
  });
  afterAll(() => t.close());

  type Make = () => Promise<string>;
  const badTokens: [string, Make][] = [
    ['a token for another audience', () => issuer.mintToken({ aud: `${t.base}/other` })],
    [
      'a token from another issuer',
      () => issuer.mintToken({ aud: audience, iss: 'http://127.0.0.1:1/other-issuer' }),
    ],
    ['an expired token', () => issuer.mintToken({ aud: audience, iat: '-2h', exp: '-1h' })],
    ['a token not valid yet (nbf)', () => issuer.mintToken({ aud: audience, nbf: '1h' })],
    [
      'an unsigned token (alg none)',
      async () =>
        issuer.unsignedToken({
          iss: issuer.issuer,
          aud: audience,
          sub: 'alice',
          exp: Math.floor(Date.now() / 1000) + 300,
        }),
    ],
    [
      'a token signed by an untrusted key under the trusted kid',
      () => issuer.mintToken({ key: 'untrusted', aud: audience }),
    ],
    [
      'a token under an unknown kid',
      () => issuer.mintToken({ kid: 'rotated-away', aud: audience }),
    ],
    [
      'an HS256 token keyed with the public key (algorithm confusion)',
      () => issuer.mintToken({ alg: 'HS256', aud: audience }),
    ],
    ['a bearer value that is not a JWT', async () => 'not.a.jwt'],
  ];

  it('a valid token from the issuer is admitted (the control for every refusal below)', async () => {
    const session = await t.initialize(good);
    const answer = await t.request(callTool(1, 'whoami'), { token: good, session });
    expect(answer.result.content).toEqual([{ type: 'text', text: 'alice' }]);
    expect(seen.runs).toEqual(['whoami']);
  });

  it.each(badTokens)(
    'Streamable HTTP: %s → 401 invalid_token, and the tool never runs',
    async (_name, make) => {
      const session = await t.initialize(good);
      const token = await make();
      await expect401(await t.post(callTool(1, 'whoami'), { token, session }), prm, {
        error: 'invalid_token',
      });
      await expect401(await t.send('GET', undefined, { token, session }), prm, {
        error: 'invalid_token',
      });
      await expect401(await t.send('DELETE', undefined, { token, session }), prm, {
        error: 'invalid_token',
      });
      await expect401(
        await t.post(rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} }), {
          token,
        }),
        prm,
        { error: 'invalid_token' },
      );
      // The session is still alive for its owner, and nothing ran on it.
      const answer = await t.request(rpc(2, 'ping'), { token: good, session });
      expect(answer.result).toEqual({});
      expect(seen.runs).toEqual([]);
    },
  );

  it.each(badTokens)(
    'HTTP+SSE pair: %s → 401 on GET /sse and on POST /messages; the tool never runs',
    async (_name, make) => {
      const token = await make();
      await expect401(await t.openSse(token), prm, { error: 'invalid_token' });
      const session = await t.ssePair(good);
      await expect401(await session.post(callTool(1, 'whoami'), token), prm, {
        error: 'invalid_token',
      });
      // A later request of the owner is answered; the refused call was never dispatched.
      expect((await session.request(rpc(2, 'ping'), good)).result).toEqual({});
      expect(session.stream.messages.map((m) => m.id)).toEqual([2]);
      expect(seen.runs).toEqual([]);
    },
  );

  const missing: [string, Record<string, string>, string][] = [
    ['no Authorization header', {}, ''],
    ['a Basic Authorization header', { authorization: 'Basic YWxpY2U6c2VjcmV0' }, ''],
    ['a Bearer scheme with no token', { authorization: 'Bearer' }, ''],
    ['a Bearer header with two tokens', { authorization: 'Bearer a.b.c d.e.f' }, ''],
  ];

  it.each(missing)('%s → 401 with the challenge, on every route', async (_name, headers) => {
    const session = await t.initialize(good);
    for (const response of [
      await t.post(callTool(1, 'whoami'), { session, headers }),
      await t.send('GET', undefined, { session, headers }),
      await t.send('DELETE', undefined, { session, headers }),
      await t.openSse(undefined, headers),
    ]) {
      expect(response.status).toBe(401);
      const challenge = parseChallenge(response.headers.get('www-authenticate'));
      expect(challenge.resource_metadata).toBe(prm);
      expect(await response.json()).toEqual(errorBody());
    }
    expect(seen.runs).toEqual([]);
  });

  it('no token at all → a challenge without error= (RFC 6750 §3.1)', async () => {
    await expect401(await t.post(callTool(1, 'whoami')), prm);
    await expect401(await t.openSse(), prm);
  });

  it('a valid token in the query string (?access_token=) is never read → 401', async () => {
    const query = `?access_token=${encodeURIComponent(good)}`;
    const session = await t.initialize(good);
    const streamable = await t.fetch(`/mcp${query}`, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-session-id': session,
      },
      body: JSON.stringify(callTool(1, 'whoami')),
    });
    await expect401(streamable, prm);
    await expect401(
      await t.fetch(`/sse${query}`, { headers: { accept: 'text/event-stream' } }),
      prm,
    );
    const ssePair = await t.ssePair(good);
    const posted = await t.fetch(`${ssePair.endpoint}&access_token=${encodeURIComponent(good)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(callTool(2, 'whoami')),
    });
    await expect401(posted, prm);
    expect(seen.runs).toEqual([]);
  });
});

describe('requiredScopes in the challenge', () => {
  let t: AuthApp;

  beforeAll(async () => {
    t = await bootAuthApp({
      http: (base) => ({
        auth: {
          issuer: issuer.issuer,
          audience: `${base}/mcp`,
          jwksUri: issuer.jwksUri,
          requiredScopes: ['notes:read', 'notes:write'],
        },
      }),
    });
  });
  afterAll(() => t.close());

  it('a 401 names the required scopes in scope=', async () => {
    const prm = `${t.base}/.well-known/oauth-protected-resource/mcp`;
    await expect401(await t.post(callTool(1, 'whoami')), prm, { scope: 'notes:read notes:write' });
    const expired = await issuer.mintToken({ aud: t.url, iat: '-2h', exp: '-1h' });
    await expect401(await t.openSse(expired), prm, {
      error: 'invalid_token',
      scope: 'notes:read notes:write',
    });
  });
});

describe('the authenticate hook', () => {
  let t: AuthApp;
  let prm: string;

  beforeAll(async () => {
    t = await bootAuthApp({
      http: () => ({
        authenticate: (req: IncomingMessage) => {
          const key = req.headers['x-api-key'];
          if (key === 'boom') throw new Error('the key store is down');
          if (key === 'alice-key') return { subject: 'alice', scopes: ['notes:read'] };
          // Identities that name nobody: compared with an operator's, they could pass for anyone.
          if (key === 'empty-subject') return { subject: '', scopes: [] };
          if (key === 'number-issuer') return { subject: 'bob', issuer: 7 as never, scopes: [] };
          return undefined;
        },
      }),
    });
    prm = `${t.base}/.well-known/oauth-protected-resource/mcp`;
  });
  afterAll(() => t.close());

  it('a principal from the hook is let through, and reaches the tool', async () => {
    const headers = { 'x-api-key': 'alice-key' };
    const response = await t.post(
      rpc(0, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'k', version: '1' },
      }),
      { headers },
    );
    expect(response.status).toBe(200);
    const session = response.headers.get('mcp-session-id')!;
    await response.arrayBuffer();
    const answer = await t.request(callTool(1, 'whoami'), { session, headers });
    expect(answer.result.content).toEqual([{ type: 'text', text: 'alice' }]);
    expect(seen.tool).toEqual([{ subject: 'alice', scopes: ['notes:read'] }]);
  });

  it.each([
    ['returns undefined', { 'x-api-key': 'wrong-key' }],
    ['throws', { 'x-api-key': 'boom' }],
    ['returns an empty subject', { 'x-api-key': 'empty-subject' }],
    ['returns an issuer that is not a string', { 'x-api-key': 'number-issuer' }],
  ])('the hook %s → 401 with the challenge (fail closed)', async (_name, headers) => {
    await expect401(await t.post(callTool(1, 'whoami'), { headers }), prm);
    // With no configured audience the resource is read off the request: on the SSE pair's route the
    // challenge names the metadata for that path, which is served too.
    const sse = await t.openSse(undefined, headers);
    expect(sse.status).toBe(401);
    expect(await sse.json()).toEqual(errorBody());
    const named = parseChallenge(sse.headers.get('www-authenticate')).resource_metadata;
    expect(named.startsWith(`${t.base}/.well-known/oauth-protected-resource`)).toBe(true);
    const metadata = await t.fetch(new URL(named).pathname);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      resource: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
    });
    expect(seen.runs).toEqual([]);
  });
});
