import { Logger } from '@nestjs/common';
import { JsonRpcErrorCode } from '../../protocol/error-codes.constants.js';
import { jsonRpcError } from '../../protocol/jsonrpc.js';
import { McpError } from '../../protocol/mcp.errors.js';
const logger = new Logger('McpServer');
/**
 * Turns a thrown error into a JSON-RPC error response. Only `McpError`s carry
 * their message to the client; anything else is logged in full and answered
 * with a bare -32603, so no stack or internal text leaks.
 */
export function errorResponse(id, error, method) {
    if (error instanceof McpError)
        return jsonRpcError(id, error.code, error.message, error.data);
    logger.error(`${method} failed: ${error?.stack ?? String(error)}`);
    return jsonRpcError(id, JsonRpcErrorCode.InternalError, 'Internal error');
}
//# sourceMappingURL=error-response.js.map