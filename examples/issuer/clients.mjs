// The two clients a console-enabled MCP server needs at its issuer: the operator console (a
// browser sign-in: authorization code with PKCE) and the agents (machine callers: client
// credentials). See docs/operator-console.md.

/**
 * The console's client. Public (`none`: PKCE is its only proof) unless a secret is given; a
 * confidential console authenticates with `client_secret_post`, the one method the console's
 * relying party uses, so the issuer must be told to expect exactly that.
 */
export function consoleClient({ clientId, clientSecret, redirectUris, scope }) {
  return {
    client_id: clientId,
    ...(clientSecret
      ? { client_secret: clientSecret, token_endpoint_auth_method: 'client_secret_post' }
      : { token_endpoint_auth_method: 'none' }),
    grant_types: ['authorization_code'],
    response_types: ['code'],
    redirect_uris: redirectUris,
    scope: ['openid', scope].join(' '),
  };
}

/**
 * The agents' client: no user, no redirect, a secret sent in HTTP Basic. Its tokens are for the
 * MCP server only (see resources.mjs); the MCP server knows the agent by the token's `sub`,
 * which this issuer sets to the client id.
 */
export function agentClient({ clientId, clientSecret, scopes }) {
  return {
    client_id: clientId,
    client_secret: clientSecret,
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    scope: scopes.join(' '),
  };
}
