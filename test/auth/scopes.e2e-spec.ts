import { PassThrough } from 'node:stream';
import { McpStdioTransport, McpWarden, type McpPrincipal } from '../../src/index.js';
import { McpTestClient } from '../../src/testing/index.js';
import { deferred } from '../support/deferred.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  bootAuthApp,
  callTool,
  compileAuthApp,
  denial,
  initializeParams,
  parseChallenge,
  resetSeen,
  rpc,
  seen,
  type AuthApp,
} from './auth-app.js';

/*
 * Per-tool scopes: a tool the caller's scopes do not cover is hidden, and
 * calling it is a 403 step-up over HTTP and the tool-deny result on stdio.
 * `requiredScopes` gate every request.
 */

let issuer: TestIssuer;

beforeAll(async () => {
  issuer = await startTestIssuer({ scopes: ['notes:read', 'notes:write', 'notes:admin'] });
});
afterAll(() => issuer.close());
beforeEach(resetSeen);

const names = (listed: any) =>
  listed.result.tools.map((tool: { name: string }) => tool.name).sort();

describe('per-tool scopes over HTTP', () => {
  let t: AuthApp;
  let prm: string;
  let reader: string;
  let admin: string;

  beforeAll(async () => {
    t = await bootAuthApp({
      http: (base) => ({
        auth: { issuer: issuer.issuer, audience: `${base}/mcp`, jwksUri: issuer.jwksUri },
      }),
    });
    prm = `${t.base}/.well-known/oauth-protected-resource/mcp`;
    reader = await issuer.mintToken({ aud: t.url, sub: 'alice', scope: 'notes:read' });
    admin = await issuer.mintToken({ aud: t.url, sub: 'alice', scope: 'notes:read notes:admin' });
  });
  afterAll(() => t.close());

  it('tools/list hides a tool whose scopes the token lacks, and shows it to a token with them', async () => {
    const session = await t.initialize(reader);
    expect(names(await t.request(rpc(1, 'tools/list'), { token: reader, session }))).toEqual([
      'drop_table',
      'whoami',
    ]);
    const adminSession = await t.initialize(admin);
    expect(
      names(await t.request(rpc(1, 'tools/list'), { token: admin, session: adminSession })),
    ).toEqual(['admin_notes', 'drop_table', 'whoami']);
  });

  it('calling it without the scope → HTTP 403 with the insufficient_scope step-up challenge; the tool never runs', async () => {
    const session = await t.initialize(reader);
    const response = await t.post(callTool(7, 'admin_notes'), { token: reader, session });
    expect(response.status).toBe(403);
    const challenge = parseChallenge(response.headers.get('www-authenticate'));
    expect(challenge).toEqual({
      error: 'insufficient_scope',
      scope: 'notes:admin',
      resource_metadata: prm,
    });
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="insufficient_scope", scope="notes:admin", resource_metadata="/,
    );
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -31403, data: { error: 'insufficient_scope', scope: 'notes:admin' } },
    });
    expect(seen.runs).toEqual([]);
  });

  it('with the scope the same call runs', async () => {
    const session = await t.initialize(admin);
    const answer = await t.request(callTool(8, 'admin_notes'), { token: admin, session });
    expect(answer.result.content).toEqual([{ type: 'text', text: 'admin ran' }]);
    expect(seen.runs).toEqual(['admin_notes']);
  });

  it('HTTP+SSE pair: hidden from tools/list; the call is refused with insufficient_scope and never runs', async () => {
    const ssePair = await t.ssePair(reader);
    await ssePair.request(rpc(1, 'initialize', initializeParams()), reader);
    expect(names(await ssePair.request(rpc(2, 'tools/list'), reader))).toEqual([
      'drop_table',
      'whoami',
    ]);
    // The POST was answered 202 before dispatch, so the refusal is the JSON-RPC error on the stream.
    const refused = await ssePair.request(callTool(3, 'admin_notes'), reader);
    expect(refused.error).toMatchObject({
      code: -31403,
      data: { error: 'insufficient_scope', scope: 'notes:admin' },
    });
    expect(seen.runs).toEqual([]);

    const granted = await t.ssePair(admin);
    expect((await granted.request(callTool(4, 'admin_notes'), admin)).result.content).toEqual([
      { type: 'text', text: 'admin ran' },
    ]);
  });
});

describe('requiredScopes', () => {
  let t: AuthApp;

  beforeAll(async () => {
    t = await bootAuthApp({
      http: (base) => ({
        auth: {
          issuer: issuer.issuer,
          audience: `${base}/mcp`,
          jwksUri: issuer.jwksUri,
          requiredScopes: ['notes:read'],
        },
      }),
    });
  });
  afterAll(() => t.close());

  it('a valid token without them → 403 insufficient_scope on every request and route', async () => {
    const prm = `${t.base}/.well-known/oauth-protected-resource/mcp`;
    const good = await issuer.mintToken({ aud: t.url, sub: 'alice', scope: 'notes:read' });
    const writer = await issuer.mintToken({ aud: t.url, sub: 'alice', scope: 'notes:write' });
    const session = await t.initialize(good);
    const ssePair = await t.ssePair(good);
    const responses = [
      await t.post(rpc(0, 'initialize', initializeParams()), { token: writer }),
      await t.post(callTool(1, 'whoami'), { token: writer, session }),
      await t.send('GET', undefined, { token: writer, session }),
      await t.send('DELETE', undefined, { token: writer, session }),
      await t.openSse(writer),
      await ssePair.post(callTool(2, 'whoami'), writer),
    ];
    for (const response of responses) {
      expect(response.status).toBe(403);
      expect(parseChallenge(response.headers.get('www-authenticate'))).toEqual({
        error: 'insufficient_scope',
        scope: 'notes:read',
        resource_metadata: prm,
      });
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: expect.anything() });
    }
    expect(seen.runs).toEqual([]);
    // The token with the required scope still gets through.
    expect((await t.request(callTool(3, 'whoami'), { token: good, session })).result).toBeDefined();
  });
});

describe('per-tool scopes on stdio', () => {
  const stdioPrincipal: McpPrincipal = { subject: 'operator', scopes: ['notes:read'] };

  it('McpStdioTransport with an operator principal: the under-scoped call gets the deny with detail insufficient_scope', async () => {
    const app = await compileAuthApp({ transport: 'stdio' });
    await app.init();
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new McpStdioTransport(app.get(McpWarden), {
      input,
      output,
      principal: stdioPrincipal,
    });
    const running = transport.run();
    const replies = new Map<number, ReturnType<typeof deferred<any>>>();
    const reply = (id: number) => {
      if (!replies.has(id)) replies.set(id, deferred<any>());
      return replies.get(id)!.promise;
    };
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const message = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (typeof message.id === 'number') {
          void reply(message.id);
          replies.get(message.id)!.resolve(message);
        }
      }
    });
    const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
    try {
      send(rpc(1, 'initialize', initializeParams()));
      await reply(1);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send(rpc(2, 'tools/list'));
      expect(names(await reply(2))).toEqual(['drop_table', 'whoami']);
      send(callTool(3, 'admin_notes'));
      expect((await reply(3)).result).toEqual(denial('admin_notes', 'deny', 'insufficient_scope'));
      expect(seen.runs).toEqual([]);
      send(callTool(4, 'whoami'));
      expect((await reply(4)).result.content).toEqual([{ type: 'text', text: 'operator' }]);
    } finally {
      input.end();
      await running;
      await app.close();
    }
  });

  it('McpTestClient on stdio: without the scope the deny result; with it the tool runs', async () => {
    const app = await compileAuthApp({ transport: 'stdio' });
    await app.init();
    try {
      const under = await McpTestClient.connect(app, {
        principal: stdioPrincipal,
        transport: 'stdio',
      });
      expect(await under.callTool('admin_notes', {})).toEqual(
        denial('admin_notes', 'deny', 'insufficient_scope'),
      );
      expect(seen.runs).toEqual([]);
      const granted = await McpTestClient.connect(app, {
        principal: { subject: 'operator', scopes: ['notes:admin'] },
        transport: 'stdio',
      });
      expect(await granted.callTool('admin_notes', {})).toMatchObject({
        content: [{ type: 'text', text: 'admin ran' }],
      });
      await under.close();
      await granted.close();
    } finally {
      await app.close();
    }
  });
});
