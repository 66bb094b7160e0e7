import type { JsonRpcMessage, RequestId } from '../../core/protocol/jsonrpc.js';
import type { McpRequestEnvelope } from '../../core/protocol/request-envelope.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import type { RequestCancellation } from '../connection/request-cancellation.js';
import type { McpRoute } from './mcp-method.explorer.js';
import type { McpMessageOrigin } from './message-origin.interface.js';

/** What the dispatcher hands over once a modern request passed its checks. */
export interface McpModernCall {
  readonly id: RequestId;
  readonly method: string;
  /** The params as sent (the sealed state binds these), and as the schema parsed them. */
  readonly raw: Record<string, unknown>;
  readonly params: Record<string, unknown>;
  readonly connection: McpConnection;
  readonly origin: McpMessageOrigin;
  readonly envelope: McpRequestEnvelope;
  readonly cancellation: RequestCancellation;
  readonly route: McpRoute;
}

/**
 * The modern revision (2026-07-28) as the dispatcher sees it: a port, provided by
 * `revisions/2026-07-28/` (`McpModernDispatch`), so the engine serves both eras without
 * importing the revision layer above it.
 */
export interface McpModernRevision {
  /** The answer to `call`, or null when it was cancelled (a cancelled request is never answered). */
  serve(call: McpModernCall): Promise<JsonRpcMessage | null>;
  /** A complete modern result, for an answer made before any handler ran. */
  complete(result: object): object;
  /** An error response in the modern era's shape. */
  error(response: JsonRpcMessage): JsonRpcMessage;
}

/** DI token of the modern revision. */
export const MCP_MODERN_REVISION = Symbol('McpWarden:modern-revision');
