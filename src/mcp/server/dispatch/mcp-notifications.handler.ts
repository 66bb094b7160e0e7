import { Injectable } from '@nestjs/common';
import { isJsonObject, isRequestId, type JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';

/**
 * Client notifications, and client responses to server requests. None of
 * them is ever answered; unknown ones are ignored, as JSON-RPC requires.
 */
@Injectable()
export class McpNotificationsHandler {
  constructor(private readonly outbound: McpOutboundRequests) {}

  handle(method: string, params: unknown, connection: McpConnection): void {
    switch (method) {
      case 'notifications/initialized':
        connection.initialized = true;
        return;
      case 'notifications/cancelled':
        return this.cancel(params, connection);
      default:
        return;
    }
  }

  /** A response to a server→client request (elicitation, sampling, roots). */
  response(message: JsonRpcMessage, connection: McpConnection): void {
    this.outbound.answer(message, connection);
  }

  private cancel(params: unknown, connection: McpConnection): void {
    if (!isJsonObject(params) || !isRequestId(params.requestId)) return;
    const reason = typeof params.reason === 'string' ? params.reason : 'cancelled by client';
    connection.inflight.get(params.requestId)?.abort(new Error(reason));
  }
}
