/**
 * A real OpenID Provider for the auth e2e tests, and what goes with it.
 *
 *   const issuer = await startTestIssuer();                  // oidc-provider on 127.0.0.1:<free port>
 *   const { accessToken } = await issuer.tokenByClientCredentials({
 *     scope: 'notes:read', resource: 'http://127.0.0.1:3000/mcp',  // aud = resource (RFC 8707)
 *   });
 *   const alice = await issuer.tokenByAuthorizationCode({ scope: 'notes:read', resource });
 *   const expired = await issuer.mintToken({ aud: resource, iat: '-2h', exp: '-1h' });
 *   await issuer.close();
 *
 * The auth module is configured with `{ issuer: issuer.issuer, audience: resource }` (JWKS from
 * the issuer's metadata, or `jwksUri: issuer.jwksUri`, or `jwks: issuer.jwks`).
 */
export {
  startTestIssuer,
  TokenEndpointError,
  type AuthorizationCodeGrant,
  type AuthorizeRequest,
  type ClientAuthMethod,
  type ClientCredentialsRequest,
  type ExchangeCodeRequest,
  type IssuedToken,
  type TestClient,
  type TestIssuer,
  type TestIssuerOptions,
} from './issuer.js';
export { generateSigningKey, type SigningKey } from './keys.js';
export { unsignedToken, type MintAlgorithm, type MintTokenOptions } from './tokens.js';
export {
  AuthorizationError,
  followAuthorization,
  type AuthorizationResponse,
} from './user-agent.js';
export {
  startFakeProtectedResource,
  type FakeProtectedResource,
  type FakeProtectedResourceOptions,
} from './fake-protected-resource.js';
export { SdkAuthCodeProvider } from './sdk-auth-code-provider.js';
export { TOKEN_EXCHANGE_GRANT, type TokenExchangeRecord } from './token-exchange-grant.js';
