import { Logger } from '@nestjs/common';
import { JsonRpcErrorCode } from '../../protocol/error-codes.constants.js';
import { jsonRpcError, type JsonRpcMessage, type RequestId } from '../../protocol/jsonrpc.js';
import { McpError } from '../../protocol/mcp.errors.js';

const logger = new Logger('McpServer');

/**
 * Turns a thrown error into a JSON-RPC error response. Only `McpError`s carry
 * their message to the client; anything else is logged in full and answered
 * with a bare -32603, so no stack or internal text leaks.
 */
export function errorResponse(
  id: RequestId | null,
  error: unknown,
  method: string,
): JsonRpcMessage {
  if (error instanceof McpError) return jsonRpcError(id, error.code, error.message, error.data);
  logger.error(`${method} failed: ${(error as Error)?.stack ?? String(error)}`);
  return jsonRpcError(id, JsonRpcErrorCode.InternalError, 'Internal error');
}
