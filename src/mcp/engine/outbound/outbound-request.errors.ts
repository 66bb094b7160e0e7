import { JsonRpcErrorCode } from '../../core/protocol/error-codes.constants.js';
import { McpWardenError } from '../../core/errors/mcp-warden.error.js';

/** Why a server→client request ended without a result. */
export type McpOutboundFailure =
  'timeout' | 'connection_closed' | 'cancelled' | 'error_reply' | 'limit';

/** A server→client request (elicitation, sampling, roots) that ended without a result. */
export class McpOutboundRequestError extends McpWardenError {
  constructor(
    readonly reason: McpOutboundFailure,
    message: string,
    readonly error?: unknown,
  ) {
    super(JsonRpcErrorCode.InternalError, message);
  }

  /** A failure of the framework's own, handled where it is thrown: never a client's answer. */
  override get answersClient(): boolean {
    return false;
  }
}
