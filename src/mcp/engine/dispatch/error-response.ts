import { Logger } from '@nestjs/common';
import { protocolErrorOf } from '../../core/errors/sdk-errors.js';
import { JsonRpcErrorCode } from '../../core/protocol/error-codes.constants.js';
import type { McpLogFields } from '../../core/common/log-fields.js';
import { jsonRpcError, type JsonRpcMessage, type RequestId } from '../../core/protocol/jsonrpc.js';

const logger = new Logger('McpWarden');

/**
 * Turns a thrown error into a JSON-RPC error response. Only `McpWardenError`s
 * and the official SDKs' protocol errors carry their code and message to the
 * client; anything else is logged in full and answered with a bare -32603, so
 * no stack or internal text leaks.
 */
export function errorResponse(
  id: RequestId | null,
  error: unknown,
  method: string,
  fields?: McpLogFields,
): JsonRpcMessage {
  const known = protocolErrorOf(error);
  if (known) return jsonRpcError(id, known.code, known.message, known.data);
  const text = `${method} failed: ${(error as Error)?.stack ?? String(error)}`;
  if (fields) logger.error(text, fields);
  else logger.error(text);
  return jsonRpcError(id, JsonRpcErrorCode.InternalError, 'Internal error');
}
