import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import type { Provider } from 'oidc-provider';
import { generateSigningKey } from './keys.js';
import { loadOidcProvider } from './load-provider.js';
import { createMemoryAdapter } from './memory-adapter.js';
import { mintToken, unsignedToken, type MintTokenOptions } from './tokens.js';
import { followAuthorization } from './user-agent.js';
import { registerTokenExchangeGrant } from './token-exchange-grant.js';
import {
  TokenEndpointError,
  type AuthorizationCodeGrant,
  type AuthorizeRequest,
  type ClientCredentialsRequest,
  type ExchangeCodeRequest,
  type IssuedToken,
  type TestClient,
  type TestIssuer,
  type TestIssuerOptions,
} from './issuer.types.js';

export * from './issuer.types.js';

const DEFAULT_SCOPES = ['notes:read', 'notes:write'];

function isLoopbackResource(resource: string): boolean {
  try {
    const url = new URL(resource);
    return url.protocol === 'http:' && url.hostname === '127.0.0.1';
  } catch {
    return false;
  }
}

function toClient(partial: Partial<TestClient> & { clientId: string }, scopes: string[]) {
  const authMethod = partial.authMethod ?? (partial.clientSecret ? 'client_secret_basic' : 'none');
  const redirectUris = partial.redirectUris ?? [];
  const client: TestClient = {
    clientId: partial.clientId,
    clientSecret:
      authMethod === 'none' ? undefined : (partial.clientSecret ?? `${partial.clientId}-secret`),
    authMethod,
    scope: partial.scope ?? scopes.join(' '),
    redirectUris,
    grantTypes:
      partial.grantTypes ??
      (authMethod === 'none'
        ? ['authorization_code', 'refresh_token']
        : redirectUris.length
          ? ['client_credentials', 'authorization_code', 'refresh_token']
          : ['client_credentials']),
  };
  return client;
}

function clientMetadata(client: TestClient): Record<string, unknown> {
  return {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    token_endpoint_auth_method: client.authMethod,
    scope: client.scope,
    grant_types: client.grantTypes,
    redirect_uris: client.redirectUris,
    response_types: client.grantTypes.includes('authorization_code') ? ['code'] : [],
  };
}

function pkcePair(): { codeVerifier: string; codeChallenge: string } {
  const codeVerifier = base64url.encode(randomBytes(32));
  const codeChallenge = base64url.encode(createHash('sha256').update(codeVerifier).digest());
  return { codeVerifier, codeChallenge };
}

/**
 * Starts a real OpenID Provider (`oidc-provider`) on 127.0.0.1 on a free port. Access tokens
 * for a resource indicator are RS256 JWTs with `aud` = the resource and a `scope` claim; clients
 * may also register themselves (RFC 7591); the authorization endpoint logs in and consents by
 * itself, so the authorization-code flow completes without a browser.
 */
export async function startTestIssuer(options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const { default: ProviderClass, errors } = await loadOidcProvider();
  const subject = options.subject ?? 'alice';
  const scopes = options.scopes ?? DEFAULT_SCOPES;
  const accessTokenTtl = options.accessTokenTtl ?? 300;
  const [trusted, untrusted] = await Promise.all([generateSigningKey(), generateSigningKey()]);

  const clientList = [
    toClient({ clientId: 'mcp-service', authMethod: 'client_secret_basic' }, scopes),
    toClient({ clientId: 'mcp-service-post', authMethod: 'client_secret_post' }, scopes),
    toClient(
      { clientId: 'mcp-public', authMethod: 'none', redirectUris: ['http://127.0.0.1/callback'] },
      scopes,
    ),
    ...(options.clients ?? []).map((client) => toClient(client, scopes)),
  ];
  const clients: Record<string, TestClient> = Object.fromEntries(
    clientList.map((client) => [client.clientId, client]),
  );

  const requests: { method: string; path: string }[] = [];
  const serverErrors: unknown[] = [];
  // The provider needs the issuer URL, so it is built once the server has its port.
  const app: { handle?: (req: IncomingMessage, res: ServerResponse) => void } = {};

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push({ method: req.method ?? 'GET', path });
    if (path.startsWith('/interaction/') && (req.method === 'GET' || req.method === 'POST')) {
      interact(req, res).catch((error: unknown) => {
        serverErrors.push(error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`interaction failed: ${String(error)}`);
      });
      return;
    }
    if (app.handle) app.handle(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const resourceAccepted = (resource: string) =>
    options.resources ? options.resources.includes(resource) : isLoopbackResource(resource);

  const configuration = {
    adapter: createMemoryAdapter(),
    jwks: { keys: [trusted.privateJwk] },
    clients: clientList.map(clientMetadata),
    scopes: ['openid', 'offline_access', ...scopes],
    cookies: { keys: [randomBytes(32).toString('hex')] },
    findAccount: (_ctx: unknown, accountId: string) => ({
      accountId,
      claims: async () => ({ sub: accountId }),
    }),
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    pkce: { required: () => true },
    clientBasedCORS: () => true,
    ttl: {
      AccessToken: accessTokenTtl,
      ClientCredentials: accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: accessTokenTtl,
      RefreshToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      registration: { enabled: true },
      introspection: { enabled: true, allowedPolicy: () => true },
      revocation: { enabled: true, allowedPolicy: () => true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) =>
          oneOf ?? options.resources?.[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (!resourceAccepted(resource)) {
            throw new errors.InvalidTarget(`${resource} is not a resource this issuer serves`);
          }
          return {
            scope: scopes.join(' '),
            audience: resource,
            accessTokenTTL: accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  };
  let live: Provider;
  try {
    live = new ProviderClass(issuer, configuration);
  } catch (error) {
    server.close();
    throw error;
  }
  live.on('server_error', (_ctx: unknown, error: unknown) => serverErrors.push(error));
  live.on('error', (error: unknown) => serverErrors.push(error));
  const tokenExchanges = options.tokenExchange
    ? await registerTokenExchangeGrant(live, trusted, options.tokenExchange)
    : [];
  app.handle = live.callback();

  /** Logs the account in and grants what the client asked for: the user "clicks allow". */
  async function interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await live.interactionDetails(req, res);
    const hint = details.params.login_hint;
    const accountId =
      details.session?.accountId ?? (typeof hint === 'string' && hint ? hint : subject);
    if (details.prompt.name === 'login' && options.loginForm) {
      if (req.method !== 'POST') return showLoginForm(res, details.uid);
      const typed = new URLSearchParams(await readBody(req)).get('login')?.trim();
      if (!typed) return showLoginForm(res, details.uid);
      await live.interactionFinished(
        req,
        res,
        { login: { accountId: typed } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'login') {
      await live.interactionFinished(
        req,
        res,
        { login: { accountId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name !== 'consent') {
      throw new Error(`unexpected interaction prompt ${details.prompt.name}`);
    }
    const clientId = String(details.params.client_id);
    const grant = details.grantId
      ? await live.Grant.find(details.grantId)
      : new live.Grant({ accountId, clientId });
    if (!grant) throw new Error(`grant ${details.grantId} not found`);
    const missing = details.prompt.details;
    const grantable = options.grantableScopes?.(accountId);
    for (const scope of missing.missingOIDCScope ?? []) {
      if (!grantable || scope === 'openid' || grantable.includes(scope)) grant.addOIDCScope(scope);
      else grant.rejectOIDCScope(scope);
    }
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, granted] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(resource, granted.join(' '));
    }
    const grantId = await grant.save();
    await live.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  }

  const tokenEndpoint = `${issuer}/token`;

  /** The login page a browser fills in (`loginForm`). */
  function showLoginForm(res: ServerResponse, uid: string): void {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Sign in</title></head><body><main>
<h1>Sign in to the test issuer</h1>
<form method="post" action="/interaction/${encodeURIComponent(uid)}">
<label for="login">Account</label> <input id="login" name="login" autocomplete="username">
<button type="submit">Sign in</button>
</form></main></body></html>`);
  }

  function clientFor(clientId: string): TestClient {
    const client = clients[clientId];
    if (!client) throw new TypeError(`no client ${clientId} is registered with the test issuer`);
    return client;
  }

  async function postToken(
    client: TestClient,
    params: URLSearchParams,
    secret = client.clientSecret,
  ): Promise<IssuedToken> {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (client.authMethod === 'client_secret_basic') {
      const credentials = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(secret ?? '')}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } else {
      params.set('client_id', client.clientId);
      if (client.authMethod === 'client_secret_post') params.set('client_secret', secret ?? '');
    }
    const response = await fetch(tokenEndpoint, { method: 'POST', headers, body: params });
    const body = (await response.json()) as Record<string, unknown>;
    if (!response.ok) {
      throw new TokenEndpointError(
        response.status,
        String(body.error),
        typeof body.error_description === 'string' ? body.error_description : undefined,
      );
    }
    const accessToken = String(body.access_token);
    if (accessToken.split('.').length !== 3) {
      throw new Error('the issuer returned an opaque access token: name a `resource` to get a JWT');
    }
    return {
      accessToken,
      tokenType: String(body.token_type),
      expiresIn: typeof body.expires_in === 'number' ? body.expires_in : undefined,
      scope: typeof body.scope === 'string' ? body.scope : undefined,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
      claims: decodeJwt(accessToken),
      header: decodeProtectedHeader(accessToken),
      response: body,
    };
  }

  async function authorizeWithPkce(
    request: AuthorizeRequest = {},
  ): Promise<AuthorizationCodeGrant> {
    const client = clientFor(request.clientId ?? 'mcp-public');
    const redirectUri = request.redirectUri ?? client.redirectUris[0];
    if (!redirectUri) throw new TypeError(`client ${client.clientId} has no redirect URI`);
    const { codeVerifier, codeChallenge } = pkcePair();
    const state = request.state ?? base64url.encode(randomBytes(12));
    const url = new URL(`${issuer}/auth`);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('code_challenge', codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', state);
    if (request.scope) url.searchParams.set('scope', request.scope);
    if (request.resource) url.searchParams.set('resource', request.resource);
    if (request.subject) url.searchParams.set('login_hint', request.subject);
    const response = await followAuthorization(url);
    if (response.state !== state) throw new Error('the authorization response lost its state');
    return {
      ...response,
      codeVerifier,
      clientId: client.clientId,
      redirectUri,
      resource: request.resource,
    };
  }

  async function exchangeCode(request: ExchangeCodeRequest): Promise<IssuedToken> {
    const client = clientFor(request.clientId ?? 'mcp-public');
    const redirectUri = request.redirectUri ?? client.redirectUris[0];
    const params = new URLSearchParams({
      grant_type: 'authorization_code',
      code: request.code,
      code_verifier: request.codeVerifier,
      redirect_uri: redirectUri,
    });
    if (request.resource) params.set('resource', request.resource);
    return postToken(client, params);
  }

  const mintDefaults = {
    trusted,
    untrusted,
    issuer,
    audience: options.resources?.[0],
    subject,
  };

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint,
    authorizationEndpoint: `${issuer}/auth`,
    registrationEndpoint: `${issuer}/reg`,
    openidConfigurationUrl: `${issuer}/.well-known/openid-configuration`,
    oauthMetadataUrl: `${issuer}/.well-known/oauth-authorization-server`,
    jwks: { keys: [trusted.publicJwk] },
    subject,
    clients,
    serviceClient: clients['mcp-service'],
    servicePostClient: clients['mcp-service-post'],
    publicClient: clients['mcp-public'],
    requests,
    serverErrors,
    tokenExchanges,
    provider: live,

    tokenByClientCredentials(request: ClientCredentialsRequest = {}) {
      const client = clientFor(request.clientId ?? 'mcp-service');
      const params = new URLSearchParams({ grant_type: 'client_credentials' });
      if (request.scope) params.set('scope', request.scope);
      if (request.resource) params.set('resource', request.resource);
      return postToken(client, params, request.clientSecret ?? client.clientSecret);
    },
    authorizeWithPkce,
    authorize: followAuthorization,
    exchangeCode,
    async tokenByAuthorizationCode(request: AuthorizeRequest = {}) {
      const grant = await authorizeWithPkce(request);
      return exchangeCode(grant);
    },
    mintToken: (mintOptions: MintTokenOptions = {}) => mintToken(mintOptions, mintDefaults),
    unsignedToken(claims?: JWTPayload, header?: Record<string, unknown>) {
      const now = Math.floor(Date.now() / 1000);
      return unsignedToken(
        claims ?? {
          iss: issuer,
          aud: options.resources?.[0],
          sub: subject,
          iat: now,
          exp: now + 300,
        },
        header,
      );
    },
    async close() {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A small form body (the login form's). */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 4096) req.destroy(new Error('login form body too large'));
    });
    req.once('end', () => resolve(body));
    req.once('error', reject);
  });
}
