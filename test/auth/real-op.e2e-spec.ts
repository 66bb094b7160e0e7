import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { NextFunction, Request, Response as ExpressResponse } from 'express';
import { SdkAuthCodeProvider, startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  bootAuthApp,
  callTool,
  resetSeen,
  rpc,
  seen,
  initializeParams,
  type AuthApp,
} from './auth-app.js';

/*
 * A real OpenID Provider end to end: its tokens open the server (keys found
 * through the issuer's own metadata), and the official SDK client, starting
 * with no token, finds its way from the 401 to a token and a successful call.
 */

let issuer: TestIssuer;
let t: AuthApp;
/** What the MCP app was asked, method and path, in order. */
const appRequests: string[] = [];

beforeAll(async () => {
  issuer = await startTestIssuer();
  t = await bootAuthApp({
    // No jwksUri: the server finds the keys through the issuer's metadata.
    http: (base) => ({ auth: { issuer: issuer.issuer, audience: `${base}/mcp` } }),
    configure: (app) =>
      app.use((req: Request, _res: ExpressResponse, next: NextFunction) => {
        appRequests.push(`${req.method} ${req.path}`);
        next();
      }),
  });
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});
beforeEach(() => {
  resetSeen();
  appRequests.length = 0;
});
afterEach(() => expect(issuer.serverErrors).toEqual([]));

const textOf = (result: CallToolResult) =>
  result.content[0]?.type === 'text' ? result.content[0].text : undefined;

describe('tokens from the issuer', () => {
  it('a client-credentials token for the audience lists and calls tools over Streamable HTTP', async () => {
    const { accessToken: token } = await issuer.tokenByClientCredentials({
      scope: 'notes:read',
      resource: t.url,
    });
    const session = await t.initialize(token);
    const listed = await t.request(rpc(1, 'tools/list'), { token, session });
    expect(listed.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
      'drop_table',
      'whoami',
    ]);
    const called = await t.request(callTool(2, 'whoami'), { token, session });
    expect(called.result.content).toEqual([{ type: 'text', text: 'mcp-service' }]);
    expect(seen.tool[0]).toMatchObject({
      subject: 'mcp-service',
      scopes: ['notes:read'],
      issuer: issuer.issuer,
    });
  });

  it('the same token works over the HTTP+SSE pair', async () => {
    const { accessToken: token } = await issuer.tokenByClientCredentials({
      scope: 'notes:read',
      resource: t.url,
    });
    const ssePair = await t.ssePair(token);
    await ssePair.request(rpc(1, 'initialize', initializeParams()), token);
    const listed = await ssePair.request(rpc(2, 'tools/list'), token);
    expect(listed.result.tools.map((tool: { name: string }) => tool.name)).toContain('whoami');
    const called = await ssePair.request(callTool(3, 'whoami'), token);
    expect(called.result.content).toEqual([{ type: 'text', text: 'mcp-service' }]);
  });
});

describe('the official SDK client', () => {
  it('client credentials: 401 → protected resource metadata → AS metadata → token → the call succeeds', async () => {
    const issuerBefore = issuer.requests.length;
    const client = new Client({ name: 'auth-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(t.url), {
        authProvider: new ClientCredentialsProvider({
          clientId: issuer.serviceClient.clientId,
          clientSecret: issuer.serviceClient.clientSecret!,
          scope: 'notes:read',
          expectedIssuer: issuer.issuer,
        }),
      }),
    );
    try {
      expect(
        textOf((await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult),
      ).toBe('mcp-service');
    } finally {
      await client.close();
    }
    expect(appRequests.slice(0, 3)).toEqual([
      'POST /mcp',
      'GET /.well-known/oauth-protected-resource/mcp',
      'POST /mcp',
    ]);
    const calls = issuer.requests.slice(issuerBefore).map((r) => `${r.method} ${r.path}`);
    expect(calls).toContain('GET /.well-known/oauth-authorization-server');
    expect(calls).toContain('POST /token');
    expect(calls.indexOf('GET /.well-known/oauth-authorization-server')).toBeLessThan(
      calls.indexOf('POST /token'),
    );
    expect(seen.tool[0]).toMatchObject({ subject: 'mcp-service', issuer: issuer.issuer });
    expect(seen.tool[0]?.claims).toMatchObject({ aud: t.url });
  });

  it("authorization code + PKCE: the SDK registers, authorizes, and alice's calls reach the authorizer as alice", async () => {
    const provider = new SdkAuthCodeProvider(undefined, 'notes:read');
    const first = new StreamableHTTPClientTransport(new URL(t.url), { authProvider: provider });
    await expect(new Client({ name: 'auth-e2e', version: '1.0.0' }).connect(first)).rejects.toThrow(
      UnauthorizedError,
    );
    const { code } = await provider.authorization;
    await first.finishAuth(code);
    await first.close();
    const [authorizationUrl] = provider.authorizationUrls;
    expect(authorizationUrl.searchParams.get('resource')).toBe(t.url);

    const client = new Client({ name: 'auth-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(t.url), { authProvider: provider }),
    );
    try {
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
      expect(textOf(result)).toBe('alice');
    } finally {
      await client.close();
    }
    const decision = seen.authorizer.find((entry) => entry.name === 'whoami');
    expect(decision?.context.principal).toMatchObject({
      subject: 'alice',
      scopes: ['notes:read'],
      issuer: issuer.issuer,
    });
    expect(decision?.context.transport).toBe('http');
  });
});
