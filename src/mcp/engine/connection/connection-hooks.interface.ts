import type { McpConnection } from './mcp-connection.js';

/**
 * What a layer above the engine holds on a connection, told when the server notifies and when
 * the connection's long-lived requests must end: the modern era's listen streams and the
 * operator asks. A port (`MCP_CONNECTION_HOOKS`, a list) the module fills, so `McpWarden`
 * never imports those layers.
 */
export interface McpConnectionHooks {
  /** A server notification, for this process's clients. */
  notify?(method: string, params?: object): void;
  /** Ends what `connection` holds open, while its channel can still carry the answers. */
  endFor(connection: McpConnection): void;
}

/** DI token of the connection hooks (`readonly McpConnectionHooks[]`). */
export const MCP_CONNECTION_HOOKS = Symbol('McpWarden:connection-hooks');
