import { McpWardenError } from '../core/errors/mcp-warden.error.js';
import { JsonRpcErrorCode } from '../core/protocol/error-codes.constants.js';

/**
 * The read seam refused a read or metadata request: JSON-RPC error -31403.
 * @publicApi
 */
export class McpReadDeniedError extends McpWardenError {
  constructor(method: string, detail: string) {
    super(JsonRpcErrorCode.AuthorizationRequired, `authorization_required: ${method}`, {
      error: 'authorization_required',
      method,
      detail,
    });
  }
}
