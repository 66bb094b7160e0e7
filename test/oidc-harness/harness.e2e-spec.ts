import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  jwtVerify,
  type JWTVerifyGetKey,
} from 'jose';
import {
  SdkAuthCodeProvider,
  startFakeProtectedResource,
  startTestIssuer,
  TokenEndpointError,
  type FakeProtectedResource,
  type TestIssuer,
} from '../support/oidc/index.js';

/*
 * The test OpenID Provider the auth e2e tests run against: a real oidc-provider on 127.0.0.1,
 * its tokens checked with jose exactly as a resource server would, its refusal tokens checked to
 * fail for the reason they are named after, and the official SDK client's OAuth flows run
 * against a minimal protected MCP endpoint.
 */

const RESOURCE = 'http://127.0.0.1:9999/mcp';

let issuer: TestIssuer;
let remoteKeys: JWTVerifyGetKey;

beforeAll(async () => {
  issuer = await startTestIssuer({
    clients: [{ clientId: 'reader', clientSecret: 'reader-secret', scope: 'notes:read' }],
  });
  remoteKeys = createRemoteJWKSet(new URL(issuer.jwksUri));
});

afterAll(async () => {
  await issuer?.close();
});

afterEach(() => {
  expect(issuer.serverErrors).toEqual([]);
});

const verify = (token: string, audience = RESOURCE) =>
  jwtVerify(token, remoteKeys, { issuer: issuer.issuer, audience });

describe('the test issuer', () => {
  it('listens on 127.0.0.1 and names itself by that origin', () => {
    expect(issuer.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(issuer.jwksUri).toBe(`${issuer.issuer}/jwks`);
    expect(issuer.tokenEndpoint).toBe(`${issuer.issuer}/token`);
  });

  it('serves the same metadata at the OpenID and the RFC 8414 well-known paths', async () => {
    const [openid, oauth] = await Promise.all(
      [issuer.openidConfigurationUrl, issuer.oauthMetadataUrl].map(async (url) => {
        const response = await fetch(url);
        expect(response.status).toBe(200);
        return (await response.json()) as Record<string, unknown>;
      }),
    );
    expect(oauth).toEqual(openid);
    expect(oauth).toMatchObject({
      issuer: issuer.issuer,
      jwks_uri: issuer.jwksUri,
      token_endpoint: issuer.tokenEndpoint,
      authorization_endpoint: issuer.authorizationEndpoint,
      registration_endpoint: issuer.registrationEndpoint,
      code_challenge_methods_supported: ['S256'],
    });
    expect(oauth.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'client_credentials', 'refresh_token']),
    );
    expect(oauth.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']),
    );
  });

  it('publishes exactly its signing key at jwks_uri', async () => {
    const response = await fetch(issuer.jwksUri);
    const published = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(published.keys).toHaveLength(1);
    expect(published.keys[0]).toMatchObject({ kty: 'RSA', kid: issuer.jwks.keys[0].kid });
    expect(published.keys[0]).not.toHaveProperty('d');
  });
});

describe('client credentials', () => {
  it('issues a JWT for the resource that verifies against the remote JWKS', async () => {
    const token = await issuer.tokenByClientCredentials({
      scope: 'notes:read',
      resource: RESOURCE,
    });
    const { payload, protectedHeader } = await verify(token.accessToken);
    expect(payload).toMatchObject({
      iss: issuer.issuer,
      sub: 'mcp-service',
      aud: RESOURCE,
      scope: 'notes:read',
      client_id: 'mcp-service',
    });
    expect(protectedHeader).toMatchObject({
      alg: 'RS256',
      typ: 'at+jwt',
      kid: issuer.jwks.keys[0].kid,
    });
    expect(token).toMatchObject({ tokenType: 'Bearer', scope: 'notes:read', claims: payload });
    expect(payload.exp! - payload.iat!).toBe(300);
  });

  it('verifies with the local key set too (an `auth.jwks` configuration)', async () => {
    const { accessToken } = await issuer.tokenByClientCredentials({
      scope: 'notes:read notes:write',
      resource: RESOURCE,
    });
    const { payload } = await jwtVerify(accessToken, createLocalJWKSet(issuer.jwks), {
      issuer: issuer.issuer,
      audience: RESOURCE,
    });
    expect(payload.scope).toBe('notes:read notes:write');
  });

  it('authenticates a client_secret_post client', async () => {
    const { accessToken } = await issuer.tokenByClientCredentials({
      clientId: 'mcp-service-post',
      scope: 'notes:write',
      resource: RESOURCE,
    });
    const { payload } = await verify(accessToken);
    expect(payload).toMatchObject({ sub: 'mcp-service-post', scope: 'notes:write' });
  });

  it('refuses a scope outside the client allowlist with invalid_scope', async () => {
    const reader = await issuer.tokenByClientCredentials({
      clientId: 'reader',
      scope: 'notes:read',
      resource: RESOURCE,
    });
    expect(reader.claims).toMatchObject({ sub: 'reader', scope: 'notes:read' });
    await expect(
      issuer.tokenByClientCredentials({
        clientId: 'reader',
        scope: 'notes:write',
        resource: RESOURCE,
      }),
    ).rejects.toMatchObject({ status: 400, error: 'invalid_scope' });
  });

  it('refuses a wrong client secret with invalid_client', async () => {
    const attempt = issuer.tokenByClientCredentials({
      clientSecret: 'not-the-secret',
      resource: RESOURCE,
    });
    await expect(attempt).rejects.toBeInstanceOf(TokenEndpointError);
    await expect(attempt).rejects.toMatchObject({ status: 401, error: 'invalid_client' });
  });

  it('refuses a resource it does not serve with invalid_target', async () => {
    await expect(
      issuer.tokenByClientCredentials({
        scope: 'notes:read',
        resource: 'https://elsewhere.example/mcp',
      }),
    ).rejects.toMatchObject({ status: 400, error: 'invalid_target' });
  });
});

describe('authorization code + PKCE, without a browser', () => {
  it('logs in as the configured subject and issues a token for the resource', async () => {
    const grant = await issuer.authorizeWithPkce({ scope: 'notes:read', resource: RESOURCE });
    expect(grant.code).toEqual(expect.any(String));
    expect(grant.iss).toBe(issuer.issuer);
    expect(grant.redirect.origin + grant.redirect.pathname).toBe('http://127.0.0.1/callback');

    const token = await issuer.exchangeCode(grant);
    const { payload } = await verify(token.accessToken);
    expect(payload).toMatchObject({
      iss: issuer.issuer,
      sub: 'alice',
      aud: RESOURCE,
      scope: 'notes:read',
      client_id: 'mcp-public',
    });
  });

  it('logs in as another subject when asked', async () => {
    const { accessToken } = await issuer.tokenByAuthorizationCode({
      subject: 'bob',
      scope: 'notes:read notes:write',
      resource: RESOURCE,
    });
    const { payload } = await verify(accessToken);
    expect(payload).toMatchObject({ sub: 'bob', scope: 'notes:read notes:write' });
  });

  it('refuses a code redeemed with the wrong verifier, and a code redeemed twice', async () => {
    const grant = await issuer.authorizeWithPkce({ scope: 'notes:read', resource: RESOURCE });
    await expect(
      issuer.exchangeCode({ ...grant, codeVerifier: 'x'.repeat(43) }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    const fresh = await issuer.authorizeWithPkce({ scope: 'notes:read', resource: RESOURCE });
    await issuer.exchangeCode(fresh);
    await expect(issuer.exchangeCode(fresh)).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('refusal tokens', () => {
  it('mintToken with no overrides is a valid token (the control for the cases below)', async () => {
    const token = await issuer.mintToken({ aud: RESOURCE, scope: 'notes:read' });
    const { payload, protectedHeader } = await verify(token);
    expect(payload).toMatchObject({ iss: issuer.issuer, sub: 'alice', scope: 'notes:read' });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: issuer.jwks.keys[0].kid });
  });

  it('a trusted token with a custom subject, scope and claims verifies', async () => {
    const token = await issuer.mintToken({
      aud: [RESOURCE, 'http://127.0.0.1:9999/other'],
      sub: 'carol',
      scope: 'notes:write',
      claims: { tenant: 'acme' },
    });
    const { payload } = await verify(token);
    expect(payload).toMatchObject({ sub: 'carol', scope: 'notes:write', tenant: 'acme' });
  });

  const cases: [string, () => Promise<string>, { code: string; claim?: string }][] = [
    [
      'signed by an untrusted key (claiming the trusted kid)',
      () => issuer.mintToken({ key: 'untrusted', aud: RESOURCE }),
      { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' },
    ],
    [
      'signed by an untrusted key under its own kid',
      () => issuer.mintToken({ key: 'untrusted', kid: 'attacker-key', aud: RESOURCE }),
      { code: 'ERR_JWKS_NO_MATCHING_KEY' },
    ],
    [
      'signed by the trusted key under an unknown kid',
      () => issuer.mintToken({ kid: 'rotated-away', aud: RESOURCE }),
      { code: 'ERR_JWKS_NO_MATCHING_KEY' },
    ],
    [
      'for another audience',
      () => issuer.mintToken({ aud: 'http://127.0.0.1:9999/not-this-one' }),
      { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'aud' },
    ],
    [
      'without an audience',
      () => issuer.mintToken({ aud: null }),
      { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'aud' },
    ],
    [
      'from another issuer',
      () => issuer.mintToken({ iss: 'http://127.0.0.1:1/other-issuer', aud: RESOURCE }),
      { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'iss' },
    ],
    [
      'expired',
      () => issuer.mintToken({ aud: RESOURCE, iat: '-2h', exp: '-1h' }),
      { code: 'ERR_JWT_EXPIRED', claim: 'exp' },
    ],
    [
      'not valid before an hour from now',
      () => issuer.mintToken({ aud: RESOURCE, nbf: '1h' }),
      { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'nbf' },
    ],
    [
      'HS256 keyed with the public key (algorithm confusion)',
      () => issuer.mintToken({ alg: 'HS256', aud: RESOURCE }),
      { code: 'ERR_JOSE_NOT_SUPPORTED' },
    ],
    [
      'RS384 from the trusted key (the published key is pinned to RS256)',
      () => issuer.mintToken({ alg: 'RS384', aud: RESOURCE }),
      { code: 'ERR_JWKS_NO_MATCHING_KEY' },
    ],
    [
      'unsigned (alg none)',
      async () => issuer.unsignedToken({ iss: issuer.issuer, aud: RESOURCE, sub: 'alice' }),
      { code: 'ERR_JOSE_NOT_SUPPORTED' },
    ],
  ];

  it.each(cases)('fails jwtVerify when %s', async (_name, make, expected) => {
    const token = await make();
    const failure = await verify(token).then(
      () => undefined,
      (error: unknown) => error as { code?: string; claim?: string },
    );
    expect(failure).toBeDefined();
    expect(failure!.code).toBe(expected.code);
    if (expected.claim) expect(failure!.claim).toBe(expected.claim);
  });

  it('the unsigned token carries alg none and an empty signature', () => {
    const token = issuer.unsignedToken();
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'none' });
    expect(token.endsWith('.')).toBe(true);
  });
});

describe('the official SDK client against a protected MCP endpoint', () => {
  let resource: FakeProtectedResource;
  let issuerRequestsBefore: number;

  beforeEach(async () => {
    resource = await startFakeProtectedResource({
      issuer: issuer.issuer,
      jwksUri: issuer.jwksUri,
      requiredScope: 'notes:read',
    });
    issuerRequestsBefore = issuer.requests.length;
  });

  afterEach(async () => {
    await resource.close();
  });

  const issuerRequests = () =>
    issuer.requests.slice(issuerRequestsBefore).map((r) => `${r.method} ${r.path}`);
  const whoami = async (client: Client) => {
    const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
    return result.content[0].type === 'text' ? result.content[0].text : undefined;
  };

  it('client credentials: 401 → protected resource metadata → RFC 8414 metadata → token', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(resource.url), {
      authProvider: new ClientCredentialsProvider({
        clientId: issuer.serviceClient.clientId,
        clientSecret: issuer.serviceClient.clientSecret!,
        scope: 'notes:read',
        expectedIssuer: issuer.issuer,
      }),
    });
    const client = new Client({ name: 'harness', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(await whoami(client)).toBe('mcp-service');
    } finally {
      await client.close();
    }

    expect(resource.requests.slice(0, 3)).toEqual([
      { method: 'POST', path: '/mcp', bearer: false, status: 401 },
      {
        method: 'GET',
        path: '/.well-known/oauth-protected-resource/mcp',
        bearer: false,
        status: 200,
      },
      { method: 'POST', path: '/mcp', bearer: true, status: 200 },
    ]);
    expect(issuerRequests()).toEqual([
      'GET /.well-known/oauth-authorization-server',
      'POST /token',
      'GET /jwks', // the resource's verifier fetching the keys
    ]);
    // The token was asked for this resource (RFC 8707): its aud is the endpoint's URL.
    expect(resource.acceptedClaims[0]).toMatchObject({
      aud: resource.url,
      sub: 'mcp-service',
      scope: 'notes:read',
    });
  });

  it('client credentials: the provider asks only for its configured scope, not a challenged one', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(resource.url), {
      authProvider: new ClientCredentialsProvider({
        clientId: issuer.serviceClient.clientId,
        clientSecret: issuer.serviceClient.clientSecret!,
        expectedIssuer: issuer.issuer,
      }),
    });
    const client = new Client({ name: 'harness', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toThrow(/403 after trying upscoping/);
    await client.close();

    // 401, then a scopeless token refused with insufficient_scope, a second token request after
    // the 403 challenge (still without the scope), refused again.
    expect(resource.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /mcp 401',
      'GET /.well-known/oauth-protected-resource/mcp 200',
      'POST /mcp 403',
      'GET /.well-known/oauth-protected-resource/mcp 200',
      'POST /mcp 403',
    ]);
    expect(issuerRequests().filter((call) => call === 'POST /token')).toHaveLength(2);
    expect(resource.acceptedClaims).toEqual([]);
  });

  it('authorization code: registers itself, follows the redirect, finishes with the code', async () => {
    const provider = new SdkAuthCodeProvider();
    const first = new StreamableHTTPClientTransport(new URL(resource.url), {
      authProvider: provider,
    });
    await expect(new Client({ name: 'harness', version: '1.0.0' }).connect(first)).rejects.toThrow(
      UnauthorizedError,
    );
    const { code } = await provider.authorization;
    await first.finishAuth(code);
    await first.close();

    const [authorizationUrl] = provider.authorizationUrls;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(issuer.authorizationEndpoint);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      resource: resource.url,
      scope: 'notes:read',
      redirect_uri: 'http://127.0.0.1/callback',
    });
    expect(provider.clientInformation()?.client_id).toEqual(expect.any(String));

    const client = new Client({ name: 'harness', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource.url), { authProvider: provider }),
    );
    try {
      expect(await whoami(client)).toBe('alice');
    } finally {
      await client.close();
    }
    const calls = issuerRequests();
    expect(calls.slice(0, 3)).toEqual([
      'GET /.well-known/oauth-authorization-server',
      'POST /reg',
      'GET /auth',
    ]);
    expect(calls).toContain('POST /token');
    expect(resource.acceptedClaims[0]).toMatchObject({ aud: resource.url, sub: 'alice' });
  });
});
