import { jsonRpcNotification } from '../../protocol/jsonrpc.js';
import type { LoggingLevel } from '../../protocol/mcp-types.js';
import { relateToRequest } from '../../protocol/related-request.js';
import type { McpToolContext } from '../../registry/interfaces/mcp-context.interface.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { clientRequestsFor } from './client-requests.js';
import { passesLogLevel } from './log-level.js';

/** A handler context plus `end()`, which the server calls once the response is built. */
export interface McpRequestScope {
  readonly context: McpToolContext;
  end(): void;
}

/**
 * Builds the context a handler receives. Progress and log messages go to the
 * caller's connection only, tagged with the request's id; progress must
 * increase and stops once the request has ended (spec: progress).
 */
export function createRequestScope(request: McpRequest): McpRequestScope {
  const { connection, id } = request;
  const meta = (request.params as { _meta?: { progressToken?: unknown } })._meta;
  const token = meta?.progressToken;
  const hasToken = typeof token === 'string' || typeof token === 'number';
  let lastProgress = -Infinity;
  let ended = false;

  const context: McpToolContext = {
    ...clientRequestsFor(request),
    connId: connection.id,
    transport: request.transport,
    requestId: id,
    signal: request.signal,
    progress(progress: number, total?: number, message?: string): void {
      if (ended || !hasToken || !(progress > lastProgress)) return;
      lastProgress = progress;
      const params: Record<string, unknown> = { progressToken: token, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      connection.send(relateToRequest(jsonRpcNotification('notifications/progress', params), id));
    },
    log(level: LoggingLevel, data: unknown, logger?: string): void {
      if (ended || !passesLogLevel(level, connection.logLevel)) return;
      const params: Record<string, unknown> = { level, data };
      if (logger !== undefined) params.logger = logger;
      connection.send(relateToRequest(jsonRpcNotification('notifications/message', params), id));
    },
  };
  return {
    context,
    end: () => {
      ended = true;
    },
  };
}
