import { JsonRpcErrorCode } from './error-codes.constants.js';

/** A JSON-RPC request id: a string or a number, never null. */
export type RequestId = string | number;

/** An outbound or inbound JSON-RPC message, as plain JSON. */
export type JsonRpcMessage = Record<string, unknown>;

/** Builds a success response. */
export function jsonRpcResult(id: RequestId, result: object): JsonRpcMessage {
  return { jsonrpc: '2.0', id, result };
}

/** Builds an error response; `id` is null when the request's id could not be read. */
export function jsonRpcError(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcMessage {
  const error: Record<string, unknown> = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

/** The -32700 reply a framing transport sends for bytes that are not JSON. */
export function parseErrorResponse(): JsonRpcMessage {
  return jsonRpcError(null, JsonRpcErrorCode.ParseError, 'Parse error');
}

/** Builds a notification. */
export function jsonRpcNotification(method: string, params?: object): JsonRpcMessage {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

/** True for a valid request id (JSON-RPC allows strings and numbers; MCP forbids null). */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
