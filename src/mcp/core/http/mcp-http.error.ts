import { JsonRpcErrorCode } from '../protocol/error-codes.constants.js';
import { jsonRpcError, type RequestId } from '../protocol/jsonrpc.js';
import { McpWardenError } from '../errors/mcp-warden.error.js';

/**
 * An HTTP-level refusal. The transport answers it with `status` and a
 * JSON-RPC error body (never a bare 4xx: dual-era clients read the body to
 * tell a modern server from an old one).
 */
export class McpHttpError extends McpWardenError {
  /** The id of the request refused, once the body was read (the error body echoes it). */
  requestId: RequestId | null = null;

  constructor(
    readonly status: number,
    message: string,
    code: number = JsonRpcErrorCode.InvalidRequest,
    /** Headers the refusal carries (`WWW-Authenticate`, `Retry-After`, …). */
    readonly headers: Record<string, string> = {},
    /** The JSON-RPC error's `data`. */
    data?: unknown,
  ) {
    super(code, message, data);
  }

  /** A failure of the framework's own, answered by the HTTP transport with `status`, never by the dispatcher. */
  override get answersClient(): boolean {
    return false;
  }

  toBody(): object {
    return jsonRpcError(this.requestId, this.code, this.message, this.data);
  }
}
