import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from './principal.interface.js';
import type { McpTokenExchangeOptions } from './token-exchange/token-exchange.options.js';

/**
 * The built-in OAuth 2.1 resource server: bearer JWTs issued by `issuer` for
 * this server (`audience`, RFC 8707), verified with the issuer's keys.
 * @publicApi
 */
export interface McpBearerAuthOptions {
  /** The expected `iss`. */
  issuer: string;
  /** This server's canonical URI(s); a token must name one in `aud`. The first is the PRM `resource`. */
  audience: string | string[];
  /** Where the issuer publishes its keys. Default: `jwks_uri` from the issuer's metadata. */
  jwksUri?: string;
  /** Local keys, instead of a JWKS URL. */
  jwks?: { keys: object[] };
  /** Scopes every request needs. */
  requiredScopes?: string[];
  /** Authorization servers named in the protected resource metadata. Default `[issuer]`. */
  authorizationServers?: string[];
  /** Accepted signing algorithms. Default: the asymmetric JOSE algorithms (never `none`, never HMAC). */
  algorithms?: string[];
  /** Allowed clock skew for `exp`/`nbf`, in seconds. Default 5. */
  clockToleranceSec?: number;
  /** Lets tools trade the caller's token for a downstream API's (`ctx.credentials.exchange`). */
  tokenExchange?: McpTokenExchangeOptions;
}

/**
 * Custom authentication (API keys, a gateway's identity headers, mTLS): the
 * caller for `request`, or undefined to refuse it with 401.
 * @publicApi
 */
export type McpAuthenticate = (
  request: IncomingMessage,
) => McpPrincipal | undefined | Promise<McpPrincipal | undefined>;
