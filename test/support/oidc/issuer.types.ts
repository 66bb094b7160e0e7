import type { JWK, JWTPayload, ProtectedHeaderParameters } from 'jose';
import type { Provider } from 'oidc-provider';
import type { TokenExchangeGrantOptions, TokenExchangeRecord } from './token-exchange-grant.js';
import type { MintTokenOptions } from './tokens.js';
import type { AuthorizationResponse } from './user-agent.js';

/* The shapes the test issuer is configured with and answers in. */

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/** A client registered with the issuer at start. */
export interface TestClient {
  clientId: string;
  /** Absent for public clients (`authMethod: 'none'`). */
  clientSecret?: string;
  authMethod: ClientAuthMethod;
  /** The scopes the client may request (client metadata `scope`), space-separated. */
  scope: string;
  redirectUris: string[];
  grantTypes: string[];
}

export interface TestIssuerOptions {
  /** The account every authorization-code flow logs in as, unless it names another. Default 'alice'. */
  subject?: string;
  /**
   * The resource indicators (RFC 8707) the issuer issues JWT access tokens for. Default: any
   * `http://127.0.0.1[:port]/...` URL. When given, the first is also the default `aud` of
   * `mintToken` and the resource used when a token request names none.
   */
  resources?: string[];
  /** The scopes every resource offers (and clients may be allowed). Default notes:read, notes:write. */
  scopes?: string[];
  /** Lifetime of issued access tokens, in seconds. Default 300. */
  accessTokenTtl?: number;
  /**
   * Show a login form at the interaction (a browser types the account name and submits it),
   * instead of logging in by itself. Consent is still given by itself.
   */
  loginForm?: boolean;
  /**
   * The OIDC scopes (besides `openid`) `accountId` may be granted; the rest it asks for are
   * rejected at consent, so the token response's `scope` lacks them. Default: all.
   */
  grantableScopes?: (accountId: string) => readonly string[] | undefined;
  /**
   * Registers RFC 8693 token exchange for these downstream audiences (token-exchange-grant.ts);
   * a client needs the grant among its `grantTypes`.
   */
  tokenExchange?: TokenExchangeGrantOptions;
  /** More clients, registered next to the three defaults (see `TestIssuer.clients`). */
  clients?: (Partial<TestClient> & { clientId: string })[];
}

/** An access token from the issuer's token endpoint, with its decoded (not verified) JWT parts. */
export interface IssuedToken {
  accessToken: string;
  tokenType: string;
  expiresIn?: number;
  /** The `scope` of the token response. */
  scope?: string;
  refreshToken?: string;
  claims: JWTPayload & { scope?: string; client_id?: string };
  header: ProtectedHeaderParameters;
  /** The token response body, as sent. */
  response: Record<string, unknown>;
}

/** The token endpoint refused a request. */
export class TokenEndpointError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string | undefined,
  ) {
    super(`token endpoint answered ${status} ${error}${description ? `: ${description}` : ''}`);
    this.name = 'TokenEndpointError';
  }
}

export interface ClientCredentialsRequest {
  /** Space-separated scopes to request. */
  scope?: string;
  /** RFC 8707 resource indicator; the token's `aud`. */
  resource?: string;
  /** A registered client (default: the `client_secret_basic` service client). */
  clientId?: string;
  /** Overrides the registered secret (to present a wrong one, say). */
  clientSecret?: string;
}

export interface AuthorizeRequest {
  /** Default: the public PKCE client. */
  clientId?: string;
  /** Default: the client's first registered redirect URI. */
  redirectUri?: string;
  scope?: string;
  resource?: string;
  /** Logs in as this account (sent as `login_hint`); default: the issuer's `subject`. */
  subject?: string;
  /** Default: random. */
  state?: string;
}

export interface AuthorizationCodeGrant extends AuthorizationResponse {
  codeVerifier: string;
  clientId: string;
  redirectUri: string;
  resource?: string;
}

export interface ExchangeCodeRequest {
  code: string;
  codeVerifier: string;
  clientId?: string;
  redirectUri?: string;
  /** Sent as `resource` at the token endpoint; the issuer falls back to the granted one. */
  resource?: string;
}

export interface TestIssuer {
  /** The issuer identifier, `http://127.0.0.1:<port>` (no trailing slash): the tokens' `iss`. */
  readonly issuer: string;
  readonly jwksUri: string;
  readonly tokenEndpoint: string;
  readonly authorizationEndpoint: string;
  readonly registrationEndpoint: string;
  /** `<issuer>/.well-known/openid-configuration` */
  readonly openidConfigurationUrl: string;
  /** `<issuer>/.well-known/oauth-authorization-server` (RFC 8414), served by oidc-provider itself. */
  readonly oauthMetadataUrl: string;
  /** The published key set (public keys only), for an `auth.jwks` local-keys setup. */
  readonly jwks: { keys: JWK[] };
  readonly subject: string;
  /** Every registered client by id: the defaults and `options.clients`. */
  readonly clients: Readonly<Record<string, TestClient>>;
  /** `mcp-service`: confidential, client_secret_basic, client_credentials. */
  readonly serviceClient: TestClient;
  /** `mcp-service-post`: confidential, client_secret_post, client_credentials. */
  readonly servicePostClient: TestClient;
  /** `mcp-public`: public (`none`), authorization_code + PKCE, redirect `http://127.0.0.1/callback`. */
  readonly publicClient: TestClient;
  /** Each HTTP request the issuer received (method and path), in order. */
  readonly requests: readonly { method: string; path: string }[];
  /** Each token exchange request that reached the grant (`options.tokenExchange`), in order. */
  readonly tokenExchanges: readonly TokenExchangeRecord[];
  /** Errors oidc-provider reported as server errors (a passing test expects none). */
  readonly serverErrors: readonly unknown[];
  /** The underlying `oidc-provider` instance. */
  readonly provider: Provider;

  tokenByClientCredentials(request?: ClientCredentialsRequest): Promise<IssuedToken>;
  /** Runs `/auth` without a browser (auto login + consent) and returns the code and its verifier. */
  authorizeWithPkce(request?: AuthorizeRequest): Promise<AuthorizationCodeGrant>;
  /** Follows an authorization URL built elsewhere (by the MCP SDK, say) to its redirect. */
  authorize(authorizationUrl: string | URL): Promise<AuthorizationResponse>;
  exchangeCode(request: ExchangeCodeRequest): Promise<IssuedToken>;
  /** `authorizeWithPkce` then `exchangeCode`, with the same client, redirect URI and resource. */
  tokenByAuthorizationCode(request?: AuthorizeRequest): Promise<IssuedToken>;
  /** A token signed with jose directly (see `MintTokenOptions`), for refusal tests. */
  mintToken(options?: MintTokenOptions): Promise<string>;
  /** An `alg: none` token carrying valid-looking claims (overridable). */
  unsignedToken(claims?: JWTPayload, header?: Record<string, unknown>): string;
  close(): Promise<void>;
}
