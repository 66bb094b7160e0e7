import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { bootAuthApp, callTool, parseChallenge, type AuthApp } from './auth-app.js';

/*
 * Protected resource metadata (RFC 9728): served without a token at the
 * well-known path and at it followed by the MCP path, naming this server's
 * canonical URI (the first audience) and its authorization servers.
 */

let issuer: TestIssuer;

beforeAll(async () => {
  issuer = await startTestIssuer();
});
afterAll(() => issuer.close());

async function metadataAt(t: AuthApp, path: string): Promise<Record<string, unknown>> {
  const response = await t.fetch(path);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as Record<string, unknown>;
}

describe('protected resource metadata', () => {
  let t: AuthApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('is served without a token at both well-known paths: resource = audience, authorization_servers = [issuer]', async () => {
    t = await bootAuthApp({
      http: (base) => ({ auth: { issuer: issuer.issuer, audience: `${base}/mcp` } }),
    });
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      expect(await metadataAt(t, path)).toMatchObject({
        resource: t.url,
        authorization_servers: [issuer.issuer],
      });
    }
    // The challenge points at the path-suffixed document.
    const refused = await t.post(callTool(1, 'whoami'));
    expect(refused.status).toBe(401);
    expect(parseChallenge(refused.headers.get('www-authenticate')).resource_metadata).toBe(
      `${t.base}/.well-known/oauth-protected-resource/mcp`,
    );
  });

  it('names the first of several audiences as the resource, and the configured authorization servers', async () => {
    t = await bootAuthApp({
      http: (base) => ({
        auth: {
          issuer: issuer.issuer,
          audience: [`${base}/mcp`, 'https://mcp.example.com/mcp'],
          authorizationServers: ['https://login.example.com', issuer.issuer],
          requiredScopes: ['notes:read'],
        },
      }),
    });
    const metadata = await metadataAt(t, '/.well-known/oauth-protected-resource/mcp');
    expect(metadata).toMatchObject({
      resource: t.url,
      authorization_servers: ['https://login.example.com', issuer.issuer],
      scopes_supported: ['notes:read'],
    });
    expect(await metadataAt(t, '/.well-known/oauth-protected-resource')).toEqual(metadata);
  });

  it('with a global prefix: the endpoint at /api/mcp, its metadata at /.well-known/oauth-protected-resource/api/mcp', async () => {
    t = await bootAuthApp({
      prefix: 'api',
      http: (base) => ({ auth: { issuer: issuer.issuer, audience: `${base}/api/mcp` } }),
    });
    expect(t.url).toBe(`${t.base}/api/mcp`);
    expect(await metadataAt(t, '/.well-known/oauth-protected-resource/api/mcp')).toMatchObject({
      resource: `${t.base}/api/mcp`,
      authorization_servers: [issuer.issuer],
    });
    const refused = await t.post(callTool(1, 'whoami'));
    expect(refused.status).toBe(401);
    expect(parseChallenge(refused.headers.get('www-authenticate')).resource_metadata).toBe(
      `${t.base}/.well-known/oauth-protected-resource/api/mcp`,
    );
    // And a token for that audience is admitted there.
    const token = await issuer.mintToken({ aud: t.url, sub: 'alice' });
    const session = await t.initialize(token);
    const answer = await t.request(callTool(1, 'whoami'), { token, session });
    expect(answer.result.content).toEqual([{ type: 'text', text: 'alice' }]);
  });
});
