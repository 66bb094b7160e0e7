// Resource indicators (RFC 8707): an access token names the one server it is for in `aud`, so
// a token an agent got for the MCP server is refused by any other server, and the reverse.

/**
 * The `features.resourceIndicators` setting: the MCP server's URL (its `http.auth.audience`) is
 * the only resource this issuer serves; its tokens are RS256 JWTs carrying `aud` = that URL and
 * the granted scopes in `scope`, which is what the framework's bearer auth verifies. A token
 * request naming any other resource is refused (`invalid_target`). Without a `resource`
 * parameter the token is opaque (for the issuer's own userinfo endpoint): the console's sign-in
 * asks for none, as it needs only the ID token.
 */
export function resourceIndicators({ resource, scopes, accessTokenTtl, InvalidTarget }) {
  return {
    enabled: true,
    defaultResource: (_ctx, _client, oneOf) => oneOf,
    useGrantedResource: () => true,
    getResourceServerInfo: (_ctx, requested) => {
      if (requested !== resource) {
        throw new InvalidTarget(`${requested} is not a resource this issuer serves`);
      }
      return {
        scope: scopes.join(' '),
        audience: resource,
        accessTokenTTL: accessTokenTtl,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      };
    },
  };
}
