/**
 * Where the single-use nonces of `requestState` are remembered until they
 * expire. In memory by default; a store shared by every instance (Redis, for
 * example) makes a state usable once across all of them.
 * @publicApi
 */
export interface McpNonceStore {
  /**
   * Records `nonce` as used until `expiresAt` (ms since the epoch). Resolves
   * true the first time a nonce is seen, false every later time.
   */
  consume(nonce: string, expiresAt: number): Promise<boolean> | boolean;
}

/**
 * Injection token of the nonce store (`McpModuleOptions.nonceStore`, else the in-memory one).
 * @publicApi
 */
export const MCP_NONCE_STORE = 'McpWarden:nonceStore';
