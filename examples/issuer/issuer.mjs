// A local OpenID Provider (oidc-provider) set up the way the operator console and its agents
// need an issuer to be: see docs/operator-console.md. Development only: accounts have no
// passwords, keys live in memory, and it listens on loopback.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { consoleGrants, findAccount } from './accounts.mjs';
import { agentClient, consoleClient } from './clients.mjs';
import { loginInteractions } from './login.mjs';
import { resourceIndicators } from './resources.mjs';

const DEFAULTS = {
  host: '127.0.0.1',
  port: 4000,
  consoleClientId: 'warden-console',
  agents: [{ clientId: 'warden-agent' }],
  approverScope: 'mcp:approve',
  approvers: ['olivia'],
  agentScopes: ['notes:read', 'notes:write'],
  accessTokenTtl: 600,
};

/**
 * Starts the issuer on `host:port` (port 0 picks one) and resolves to `{ url, consoleClient,
 * agentClients, close }`. `resource` is the MCP server's URL (its `http.auth.audience`);
 * `consoleRedirectUris` are the console's callbacks (`<publicUrl><prefix><path>/callback`).
 */
export async function startExampleIssuer(input) {
  const options = { ...DEFAULTS, ...withoutUndefined(input) };
  const agents = options.agents.map(({ clientId, clientSecret }) => ({
    clientId,
    clientSecret: clientSecret ?? randomBytes(24).toString('base64url'),
  }));
  // The issuer URL names the port, so the provider is built once the server listens.
  const handlers = {};
  const server = createServer((req, res) => {
    const handle = req.url?.startsWith('/interaction/') ? handlers.interact : handlers.provider;
    if (!handle) return void res.writeHead(503).end();
    Promise.resolve(handle(req, res)).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`sign-in failed: ${error.message}`);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const url = `http://${options.host}:${server.address().port}`;
  const provider = new Provider(url, await configuration(options, agents));
  handlers.provider = provider.callback();
  handlers.interact = loginInteractions(provider);
  return {
    url,
    consoleClient: { clientId: options.consoleClientId, clientSecret: options.consoleClientSecret },
    agentClients: agents,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function configuration(options, agents) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(6).toString('hex');
  return {
    clients: [
      consoleClient({
        clientId: options.consoleClientId,
        clientSecret: options.consoleClientSecret,
        redirectUris: options.consoleRedirectUris,
        scope: options.approverScope,
      }),
      ...agents.map((agent) => agentClient({ ...agent, scopes: options.agentScopes })),
    ],
    // Signs ID tokens and the JWT access tokens; the MCP server reads it from `jwks_uri`.
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // The approver scope is the issuer's own (granted per account), the agents' are the API's.
    scopes: ['openid', options.approverScope, ...options.agentScopes],
    claims: { openid: ['sub'] },
    // oidc-provider's own in-memory store unless one is given: restarting signs everyone out.
    ...(options.adapter ? { adapter: options.adapter } : {}),
    findAccount,
    loadExistingGrant: consoleGrants(options),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Every authorization-code client must prove the code is its own (S256).
    pkce: { required: () => true },
    ttl: {
      AccessToken: options.accessTokenTtl,
      ClientCredentials: options.accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: resourceIndicators({
        resource: options.resource,
        scopes: options.agentScopes,
        accessTokenTtl: options.accessTokenTtl,
        InvalidTarget: errors.InvalidTarget,
      }),
    },
  };
}

function withoutUndefined(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
