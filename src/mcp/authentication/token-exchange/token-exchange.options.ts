import type { KeyObject } from 'node:crypto';

/**
 * The server's own client at the issuer, for OAuth 2.0 Token Exchange (RFC 8693): a tool trades
 * its caller's token for one whose audience is a downstream API (`ctx.credentials.exchange`,
 * docs/token-exchange.md). Give `clientSecret` (`client_secret_basic`) or `privateKey`
 * (`private_key_jwt`), not both.
 * @publicApi
 */
export interface McpTokenExchangeOptions {
  clientId: string;
  clientSecret?: string;
  /** A PKCS #8 PEM or a private `KeyObject` (RSA, EC P-256 or Ed25519). */
  privateKey?: string | KeyObject;
  /** Default: `token_endpoint` from the issuer's metadata. */
  tokenEndpoint?: string;
  /** Exchanged tokens kept for reuse, least recently used first out. Default 1,000. */
  maxCachedTokens?: number;
}
