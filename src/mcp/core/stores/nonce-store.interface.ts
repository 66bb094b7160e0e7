/**
 * Where the single-use nonces of `requestState` are remembered until they
 * expire. In memory by default; a store shared by every instance (Redis, for
 * example) makes a state usable once across all of them. The server keeps
 * its own single-use entries here too (the webhook's notices and links).
 * @publicApi
 */
export interface McpNonceStore {
  /**
   * Records `nonce` as used until `expiresAt` (ms since the epoch). Resolves
   * true the first time a nonce is seen, false every later time.
   *
   * `caller` is the quota key of the caller whose `requestState` carried the
   * nonce; it is absent for the server's own entries. A bounded store counts
   * each caller's nonces against that caller's share
   * (`limits.maxRequestStatesPerPrincipal`) and keeps the server's entries
   * apart from callers', so no caller can fill what the others or the webhook
   * need. When full it throws `McpTooManyRequestsError` rather than forget a
   * live nonce (forgetting one would let its state be replayed).
   */
  consume(nonce: string, expiresAt: number, caller?: string): Promise<boolean> | boolean;
}

/**
 * Injection token of the nonce store (`McpModuleOptions.nonceStore`, else the in-memory one).
 * @publicApi
 */
export const MCP_NONCE_STORE = 'McpWarden:nonceStore';
