import { isJsonObject } from '../core/protocol/jsonrpc.js';
import { TOOL_ERROR } from './telemetry.constants.js';

/** How a request ended, as the conventions record it. */
export interface McpOperationOutcome {
  /** `error.type`: the JSON-RPC error code, `tool_error`, or `cancelled`; absent on success. */
  errorType?: string;
  /** `rpc.response.status_code`: the JSON-RPC error code, when there is one. */
  statusCode?: string;
  /** The span status description: the JSON-RPC error's message. */
  message?: string;
}

const SUCCESS: McpOperationOutcome = Object.freeze({});
/** A request that got no response (cancelled, or its connection closed first). */
export const NO_ANSWER: McpOperationOutcome = Object.freeze({ errorType: 'cancelled' });

/**
 * The outcome of the answer the server sent: an error response carries its
 * code; a result that is a `CallToolResult` with `isError: true` is a
 * `tool_error` (the conventions' value), which is how denials, failed
 * validations and failing tools answer.
 */
export function outcomeOf(answer: unknown): McpOperationOutcome {
  if (!isJsonObject(answer)) return NO_ANSWER;
  const { error, result } = answer;
  if (isJsonObject(error)) {
    const code = typeof error.code === 'number' ? String(error.code) : '_OTHER';
    const message = typeof error.message === 'string' ? error.message : undefined;
    return { errorType: code, statusCode: code, message };
  }
  if (isJsonObject(result) && result.isError === true) return { errorType: TOOL_ERROR };
  return SUCCESS;
}
