import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthorizationSettings } from '../../authorization/authorization-settings.interface.js';
import { Inject, Injectable } from '@nestjs/common';
import { JsonRpcErrorCode } from '../../core/protocol/error-codes.constants.js';
import {
  isJsonObject,
  isRequestId,
  jsonRpcError,
  jsonRpcResult,
  type JsonRpcMessage,
  type RequestId,
} from '../../core/protocol/jsonrpc.js';
import {
  McpInvalidParamsError,
  McpMethodNotFoundError,
  McpTooManyRequestsError,
} from '../../core/errors/protocol.errors.js';
import { BATCHING_PROTOCOL_VERSION } from '../../core/protocol/protocol-version.js';
import { relateToRequest } from '../../core/protocol/related-request.js';
import { McpParkedCall } from './parked-call.js';
import { McpConnections } from '../connection/mcp-connections.service.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import { RequestCancellation } from '../connection/request-cancellation.js';
import { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';
import { NONE, PARKED, parked, reply, type McpDispatchOutcome } from './dispatch-outcome.js';
import { DispatchedRequest } from './dispatched-request.js';
import { errorResponse } from './error-response.js';
import { requestLogFields } from '../../core/common/log-fields.js';
import type { McpMessageOrigin } from './message-origin.interface.js';
import { McpMethodExplorer } from './mcp-method.explorer.js';
import { McpNotificationsHandler } from './mcp-notifications.handler.js';
import { MCP_MODERN_REVISION, type McpModernRevision } from './modern-revision.interface.js';
import { readEra } from '../../core/protocol/request-envelope.js';
import { eraServes } from '../../core/protocol/era.constants.js';
import { McpParamsShapeCheck } from './params-shape.check.js';
import {
  MCP_DISPATCH_TELEMETRY,
  type McpDispatchTelemetry,
} from './dispatch-telemetry.interface.js';

/**
 * One decoded JSON-RPC message in, its outcome out. It checks the envelope,
 * routes notifications and responses, validates a request's params against
 * the official schema, runs the method's (guarded) handler and maps whatever
 * it returns or throws to the right wire shape: now, or (for a parked call)
 * later on the connection's outbound channel. The era is read from each
 * request's own `_meta`; a modern request is served by `McpModernDispatch`,
 * and the handlers serve both eras alike.
 */
@Injectable()
export class McpDispatcher {
  /** Where a message comes from when an in-process caller names nothing: the declared transport. */
  private readonly declaredOrigin: McpMessageOrigin;

  /** What a handler's requests to the client go through: the outbound queue, inside a span. */
  private readonly clientRequests: Pick<McpOutboundRequests, 'request'>;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpAuthorizationSettings,
    private readonly connections: McpConnections,
    private readonly methods: McpMethodExplorer,
    private readonly notifications: McpNotificationsHandler,
    outbound: McpOutboundRequests,
    private readonly shapes: McpParamsShapeCheck,
    @Inject(MCP_MODERN_REVISION) private readonly modernDispatch: McpModernRevision,
    @Inject(MCP_DISPATCH_TELEMETRY) private readonly telemetry: McpDispatchTelemetry,
  ) {
    this.declaredOrigin = Object.freeze({ transport: options.transport });
    this.clientRequests = {
      request: (connection, method, params, requestOptions = {}) =>
        telemetry.clientRequest(outbound, connection, method, params, requestOptions),
    };
  }

  /** Serves one message (or a 2025-03-26 batch) from `connId`. Never rejects. */
  async handle(
    message: unknown,
    connId: string,
    origin: McpMessageOrigin = this.declaredOrigin,
  ): Promise<McpDispatchOutcome> {
    const connection = this.connections.get(connId);
    if (!Array.isArray(message)) return this.handleOne(message, connection, origin);
    // Only 2025-03-26 sessions may batch; later revisions forbid it.
    if (connection.protocolVersion !== BATCHING_PROTOCOL_VERSION || message.length === 0) {
      return reply(invalidRequest(null, 'Invalid Request: batches are not supported'));
    }
    const outcomes = await Promise.all(
      message.map((item) =>
        isInitialize(item)
          ? reply(invalidRequest(idOf(item), 'Invalid Request: initialize cannot be batched'))
          : this.handleOne(item, connection, origin),
      ),
    );
    const replies = outcomes.flatMap((outcome) =>
      outcome.kind === 'reply' ? [outcome.message as JsonRpcMessage] : [],
    );
    if (replies.length > 0) return reply(replies);
    return outcomes.some((outcome) => outcome.kind === 'parked') ? PARKED : NONE;
  }

  private async handleOne(
    message: unknown,
    connection: McpConnection,
    origin: McpMessageOrigin,
  ): Promise<McpDispatchOutcome> {
    if (!isJsonObject(message) || message.jsonrpc !== '2.0') {
      return reply(invalidRequest(idOf(message), 'Invalid Request: not a JSON-RPC 2.0 message'));
    }
    const { method, id } = message;
    if (typeof method === 'string') {
      if (!('id' in message)) {
        const { params } = message;
        this.telemetry.notification(method, params, connection, origin, () =>
          this.notifications.handle(method, params, connection, origin),
        );
        return NONE;
      }
      if (!isRequestId(id)) {
        return reply(invalidRequest(null, 'Invalid Request: id must be a string or a number'));
      }
      // Inside its server span (a no-op unless the application registered an OpenTelemetry SDK).
      return this.telemetry.request(id, method, message.params, connection, origin, () =>
        this.request(id, method, message.params, connection, origin),
      );
    }
    // A response to a server→client request (an error reply may carry id null); never answered.
    const isResponse = 'result' in message || 'error' in message;
    if (isResponse && (isRequestId(id) || (id === null && 'error' in message))) {
      this.notifications.response(message, connection);
      return NONE;
    }
    return reply(invalidRequest(idOf(message), 'Invalid Request: no method'));
  }

  private async request(
    id: RequestId,
    method: string,
    rawParams: unknown,
    connection: McpConnection,
    origin: McpMessageOrigin,
  ): Promise<McpDispatchOutcome> {
    const reading = readEra(rawParams);
    if ('error' in reading) return reply(errorResponse(id, reading.error, method));
    const envelope = reading.era === 'modern' ? reading.envelope : undefined;
    const route = eraServes(method, reading.era) ? this.methods.route(method) : undefined;
    if (!route) return reply(errorResponse(id, new McpMethodNotFoundError(method), method));
    const params = rawParams === undefined ? {} : rawParams;
    if (!isJsonObject(params)) {
      const error = new McpInvalidParamsError('params must be an object');
      return reply(errorResponse(id, error, method));
    }
    // Bounded before the params schema copies them key by key (and before anything else).
    const oversized = this.shapes.refusal(id, method, params, envelope !== undefined);
    if (oversized) return reply(oversized);
    const parsed = route.params?.safeParse(params) ?? { success: true as const, data: params };
    if (!parsed.success) {
      const detail = describeIssues(parsed.error);
      const error = new McpInvalidParamsError(`Invalid params for ${method}: ${detail}`);
      return reply(errorResponse(id, error, method));
    }
    if (connection.inflight.has(id)) {
      // A reused id would share one cancellation and one answer slot with the first.
      return reply(
        invalidRequest(id, 'Invalid Request: a request with this id is already in flight'),
      );
    }
    if (connection.inflight.size >= this.options.limits.maxInFlightPerConnection) {
      return reply(errorResponse(id, new McpTooManyRequestsError(), method));
    }

    const cancellation = new RequestCancellation();
    connection.inflight.set(id, cancellation);
    const release = () => {
      if (connection.inflight.get(id) === cancellation) connection.inflight.delete(id);
    };
    const data = parsed.data as Record<string, unknown>;
    if (envelope) {
      connection.servedModern = true;
      const answer = await this.modernDispatch.serve({
        id,
        method,
        raw: params,
        params: data,
        connection,
        origin,
        envelope,
        cancellation,
        route,
      });
      release();
      return answer ? reply(answer) : NONE;
    }
    const request = new DispatchedRequest(
      id,
      method,
      data,
      connection,
      origin,
      cancellation,
      this.clientRequests,
    );
    let answer: JsonRpcMessage | null;
    try {
      const result = await route.invoke(request);
      if (result instanceof McpParkedCall) {
        // It stays in flight (so it can be cancelled) until it is closed, then answers later.
        return parked(this.answerLater(request, result, release));
      }
      answer = settled(request, result);
    } catch (error) {
      answer = failed(request, error);
    }
    release();
    return answer ? reply(answer) : NONE;
  }

  /* A parked call's answer, on its connection's channel, tagged as related to it; whether one went out. */
  private answerLater(
    request: DispatchedRequest,
    call: McpParkedCall,
    release: () => void,
  ): Promise<boolean> {
    return call.result
      .then(
        (result) => settled(request, result),
        (error: unknown) => failed(request, error),
      )
      .then((answer) => {
        this.telemetry.answeredLater(request.connection, request.id, answer);
        release();
        if (answer) request.connection.send(relateToRequest(answer, request.id));
        return answer !== null;
      });
  }
}

/* A cancelled request gets no response at all (spec: cancellation). */
function settled(request: DispatchedRequest, result: unknown): JsonRpcMessage | null {
  return request.cancelled ? null : jsonRpcResult(request.id, result as object);
}

function failed(request: DispatchedRequest, error: unknown): JsonRpcMessage | null {
  if (request.cancelled) return null;
  return errorResponse(request.id, error, request.method, requestLogFields(request));
}

function invalidRequest(id: RequestId | null, message: string): JsonRpcMessage {
  return jsonRpcError(id, JsonRpcErrorCode.InvalidRequest, message);
}

/*
 * Spec 2025-03-26: a batch never carries an `initialize` request (it would reset the
 * session mid-batch). One without an id is a notification: dropped, never answered.
 */
function isInitialize(message: unknown): boolean {
  return isJsonObject(message) && message.method === 'initialize' && 'id' in message;
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
