import type { Logger } from '@nestjs/common';
import { HttpException } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { JsonRpcErrorCode } from '../../../core/protocol/error-codes.constants.js';
import { sendJson } from '../../../core/http/send-json.js';
import { endingInTurn } from '../../../core/http/end-in-turn.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';

/**
 * Answers a refusal or failure on an MCP route: its status with a JSON-RPC
 * error body. Anything unexpected is a 500 with no internal text (the full
 * error goes to `logger`). A 5xx refusal the server chose (an `McpHttpError`:
 * a store out of reach, a bound reached) is expected, and its cause is logged
 * where it changes (the cluster store's health), not once per request: a
 * debug line only.
 */
export function sendHttpError(res: ServerResponse, exception: unknown, logger: Logger): void {
  const error = toHttpError(exception);
  if (exception instanceof McpHttpError) {
    if (error.status >= 500) logger.debug(`${error.status} ${error.message}`);
  } else if (error.status >= 500) {
    logger.error((exception as Error)?.stack ?? String(exception));
  }
  // Already answered (an SSE stream, or a reply waiting for the end of the turn): end it as is.
  if (res.headersSent) {
    if (!endingInTurn(res)) res.end();
  } else sendJson(res, error.status, error.toBody(), error.headers);
}

function toHttpError(exception: unknown): McpHttpError {
  if (exception instanceof McpHttpError) return exception;
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    return new McpHttpError(exception.getStatus(), exception.message);
  }
  return new McpHttpError(500, 'Internal error', JsonRpcErrorCode.InternalError);
}
