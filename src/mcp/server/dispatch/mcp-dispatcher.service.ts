import { Inject, Injectable } from '@nestjs/common';
import {
  McpToolApprovalRequiredException,
  McpToolDeniedException,
} from '../../authorizer/authorization.exceptions.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import type { McpModuleOptions } from '../../mcp-options.interface.js';
import { JsonRpcErrorCode } from '../../protocol/error-codes.constants.js';
import {
  isJsonObject,
  isRequestId,
  jsonRpcError,
  jsonRpcResult,
  type JsonRpcMessage,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import {
  McpError,
  McpInvalidParamsError,
  McpMethodNotFoundError,
} from '../../protocol/mcp.errors.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../../limits/mcp-limits.interface.js';
import { BATCHING_PROTOCOL_VERSION } from '../../protocol/protocol-version.js';
import { McpApprovals } from '../approval/mcp-approvals.service.js';
import { McpConnections } from '../connection/mcp-connections.service.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';
import { errorResponse } from './error-response.js';
import { McpMethodExplorer } from './mcp-method.explorer.js';
import { RequestCancellation } from '../connection/request-cancellation.js';
import { DispatchedRequest } from './dispatched-request.js';
import type { McpRequest } from './mcp-request.interface.js';
import { McpNotificationsHandler } from './mcp-notifications.handler.js';

/**
 * One decoded JSON-RPC message in, the response (or null) out. It checks the
 * envelope, routes notifications and responses, validates a request's params
 * against the official schema, runs the method's (guarded) handler and maps
 * whatever it throws to the right wire shape.
 */
@Injectable()
export class McpDispatcher {
  private readonly transport: McpModuleOptions['transport'] & string;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) options: McpModuleOptions,
    private readonly connections: McpConnections,
    private readonly methods: McpMethodExplorer,
    private readonly notifications: McpNotificationsHandler,
    private readonly approvals: McpApprovals,
    private readonly outbound: McpOutboundRequests,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
  ) {
    this.transport = options.transport ?? 'unknown';
  }

  async handle(message: unknown, connId: string): Promise<object | null> {
    const connection = this.connections.get(connId);
    if (!Array.isArray(message)) return this.handleOne(message, connection);
    // Only 2025-03-26 sessions may batch; later revisions forbid it.
    if (connection.protocolVersion !== BATCHING_PROTOCOL_VERSION || message.length === 0) {
      return invalidRequest(null, 'Invalid Request: batches are not supported');
    }
    const replies = await Promise.all(message.map((item) => this.handleOne(item, connection)));
    const answered = replies.filter((reply): reply is JsonRpcMessage => reply !== null);
    return answered.length > 0 ? answered : null;
  }

  private async handleOne(
    message: unknown,
    connection: McpConnection,
  ): Promise<JsonRpcMessage | null> {
    if (!isJsonObject(message) || message.jsonrpc !== '2.0') {
      return invalidRequest(idOf(message), 'Invalid Request: not a JSON-RPC 2.0 message');
    }
    const { method, id } = message;
    if (typeof method === 'string') {
      if (!('id' in message)) {
        this.notifications.handle(method, message.params, connection);
        return null;
      }
      if (!isRequestId(id)) {
        return invalidRequest(null, 'Invalid Request: id must be a string or a number');
      }
      return this.request(id, method, message.params, connection);
    }
    // A response to a server→client request (an error reply may carry id null); never answered.
    const isResponse = 'result' in message || 'error' in message;
    if (isResponse && (isRequestId(id) || (id === null && 'error' in message))) {
      this.notifications.response(message, connection);
      return null;
    }
    return invalidRequest(idOf(message), 'Invalid Request: no method');
  }

  private async request(
    id: RequestId,
    method: string,
    rawParams: unknown,
    connection: McpConnection,
  ): Promise<JsonRpcMessage | null> {
    const route = this.methods.route(method);
    if (!route) return errorResponse(id, new McpMethodNotFoundError(method), method);
    const params = rawParams === undefined ? {} : rawParams;
    if (!isJsonObject(params)) {
      return errorResponse(id, new McpInvalidParamsError('params must be an object'), method);
    }
    const parsed = route.params?.safeParse(params) ?? { success: true as const, data: params };
    if (!parsed.success) {
      const detail = describeIssues(parsed.error);
      return errorResponse(
        id,
        new McpInvalidParamsError(`Invalid params for ${method}: ${detail}`),
        method,
      );
    }

    if (connection.inflight.size >= this.limits.maxInFlightPerConnection) {
      const error = new McpError(JsonRpcErrorCode.TooManyRequests, 'Too many requests in flight');
      return errorResponse(id, error, method);
    }
    const cancellation = new RequestCancellation();
    connection.inflight.set(id, cancellation);
    const release = () => {
      if (connection.inflight.get(id) === cancellation) connection.inflight.delete(id);
    };
    let parked = false;
    const data = parsed.data as Record<string, unknown>;
    const request = new DispatchedRequest(
      id,
      method,
      data,
      connection,
      this.transport,
      cancellation,
      this.outbound,
    );
    try {
      const result = (await route.invoke(request)) as object;
      return cancellation.aborted ? null : jsonRpcResult(id, result);
    } catch (error) {
      // A cancelled request gets no response at all (spec: cancellation).
      if (cancellation.aborted) return null;
      try {
        if (error instanceof McpToolApprovalRequiredException && this.approvals.canAsk(request)) {
          // Only tools/call (whose params passed CallToolRequestParamsSchema) raises approval.
          this.approvals.park(request as unknown as McpRequest<{ name: string }>, error, release);
          parked = true;
          return null;
        }
        throw error;
      } catch (denied) {
        if (denied instanceof McpToolDeniedException) return jsonRpcResult(id, denied.toResult());
        return errorResponse(id, denied, method);
      }
    } finally {
      // A parked call stays in flight (so it can be cancelled) until its approval closes it.
      if (!parked) release();
    }
  }
}

function invalidRequest(id: RequestId | null, message: string): JsonRpcMessage {
  return jsonRpcError(id, JsonRpcErrorCode.InvalidRequest, message);
}

function idOf(message: unknown): RequestId | null {
  const id = isJsonObject(message) ? message.id : undefined;
  return isRequestId(id) ? id : null;
}

function describeIssues(error: unknown): string {
  const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues ?? [];
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}
