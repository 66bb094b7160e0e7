import type { McpTransportKind } from '../../authorizer/authorizer.interface.js';
import type { RequestId } from '../../protocol/jsonrpc.js';
import type { McpConnection } from '../connection/mcp-connection.js';

/**
 * One client request as the server's method handlers (and the seam guards,
 * through `ExecutionContext.getArgByIndex(0)`) see it. `params` has already
 * passed the method's schema from the official MCP package.
 */
export interface McpRequest<P = Record<string, unknown>> {
  readonly id: RequestId;
  readonly method: string;
  readonly params: P;
  readonly connection: McpConnection;
  readonly transport: McpTransportKind;
  /** Aborted by `notifications/cancelled` or when the connection closes. */
  readonly signal: AbortSignal;
  /** Whether the request was cancelled (reading it creates no signal). */
  readonly cancelled: boolean;
  /**
   * Sends a request to this request's client, related to this request and
   * cancelled with it; resolves with the client's result.
   */
  requestClient(method: string, params: object): Promise<unknown>;
  /** Aborts `signal` (the work must stop) while the request still gets a response. */
  expire(reason: string): void;
}
