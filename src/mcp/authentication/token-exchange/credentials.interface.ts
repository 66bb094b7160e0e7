/**
 * What a tool asks the issuer for: a token for `audience`, optionally narrowed to `scope`.
 * @publicApi
 */
export interface McpExchangeRequest {
  audience: string;
  scope?: string | readonly string[];
}

/**
 * A downstream access token for the current caller. `expiresAt` is in milliseconds since the
 * epoch; `scope` is what the issuer granted, when it said.
 * @publicApi
 */
export interface McpExchangedToken {
  readonly accessToken: string;
  readonly expiresAt: number;
  readonly scope?: string;
}

/**
 * The current caller's credentials, as a tool may use them (`ctx.credentials`). The caller's
 * own token is never handed out: only tokens exchanged for it.
 * @publicApi
 */
export interface McpCredentials {
  /**
   * Exchanges the caller's verified bearer token for one whose audience is `audience` (RFC
   * 8693, the server acting for the caller). Rejects with `McpTokenExchangeError` when the
   * issuer refuses, on stdio, or for a caller without a bearer token.
   */
  exchange(request: McpExchangeRequest): Promise<McpExchangedToken>;
}
