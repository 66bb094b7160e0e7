import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import { context, SpanStatusCode, trace, type Context, type Tracer } from '@opentelemetry/api';
import type {
  McpAuditEvent,
  McpAuditSeam,
} from '../authorization/audit/mcp-audit-event.interface.js';
import type { RequestId } from '../core/protocol/jsonrpc.js';
import { MCP_OPTIONS } from '../core/options/options.constants.js';
import type { McpConnection } from '../engine/connection/mcp-connection.js';
import { McpConnections } from '../engine/connection/mcp-connections.service.js';
import type { McpDispatchOutcome } from '../engine/dispatch/dispatch-outcome.js';
import type { McpMessageOrigin } from '../engine/dispatch/message-origin.interface.js';
import type { McpRequest } from '../engine/dispatch/mcp-request.interface.js';
import {
  McpOutboundRequests,
  type OutboundRequestOptions,
} from '../engine/outbound/mcp-outbound-requests.service.js';
import type { McpApprovalTelemetry, McpApprovalWait } from '../approvals/approval-wait.js';
import type { McpDecisionTelemetry } from '../authorization/audit/decision-telemetry.interface.js';
import type { McpDispatchTelemetry } from '../engine/dispatch/dispatch-telemetry.interface.js';
import { SpanApprovalWait } from './span-approval-wait.js';
import { tracedClientRequest } from './client-request.span.js';
import { startServerSpan } from './trace-context.js';
import { NO_ANSWER, outcomeOf, type McpOperationOutcome } from './operation-outcome.js';
import {
  methodLabel,
  operationAttributes,
  requestAttributes,
  spanNameOf,
} from './request-attributes.js';
import { outcomeAttributes, type ServedRequest } from './served-request.js';
import { McpSessionClock } from './session-clock.js';
import { McpRegistryNames, type McpRegisteredNames } from './registered-names.js';
import { McpTelemetryMetrics } from './telemetry-metrics.js';
import { ATTR, DECISION_EVENT, INSTRUMENTATION_SCOPE } from './telemetry.constants.js';

/**
 * Traces and metrics of the server, through the OpenTelemetry API only: one
 * SERVER span per request (the conventions' name and attributes, its parent
 * taken from `params._meta`), an event on it for every seam decision, a child
 * span for every approval wait, the conventions' duration histograms, the
 * seam counters and the live-count gauges. The application registers an SDK
 * (or not): without one every call here lands on the API's no-ops.
 */
@Injectable()
export class McpTelemetry
  implements McpDispatchTelemetry, McpDecisionTelemetry, McpApprovalTelemetry, OnModuleDestroy
{
  private readonly tracer: Tracer = trace.getTracer(INSTRUMENTATION_SCOPE);
  private readonly metrics: McpTelemetryMetrics;
  private readonly sessions: McpSessionClock;
  /* The requests being served per connection, so decisions and late answers find their span. */
  private readonly served = new WeakMap<McpConnection, Map<RequestId, ServedRequest>>();
  private parked = 0;

  constructor(
    connections: McpConnections,
    outbound: McpOutboundRequests,
    /* Names go on spans and metrics as sent only when the server has them (cardinality). */
    @Inject(McpRegistryNames) private readonly known: McpRegisteredNames,
    @Optional() @Inject(MCP_OPTIONS) options?: { readonly name: string },
  ) {
    const server = options ? { [ATTR.serverName]: options.name } : {};
    this.metrics = new McpTelemetryMetrics(() => {
      let inFlight = 0;
      for (const connection of connections.all()) inFlight += connection.inflight.size;
      return {
        connections: connections.size,
        inFlight,
        pendingClientRequests: outbound.size,
        parkedApprovals: this.parked,
      };
    }, server);
    this.sessions = new McpSessionClock(this.metrics.sessionDuration, server);
  }

  /**
   * Serves one request (`run`) inside its server span, and records its
   * duration once it is answered: now, or for a parked call when its late
   * answer goes out (`answeredLater`).
   */
  request(
    id: RequestId,
    method: string,
    params: unknown,
    connection: McpConnection,
    origin: McpMessageOrigin,
    run: () => Promise<McpDispatchOutcome>,
  ): Promise<McpDispatchOutcome> {
    const start = performance.now();
    const { span, parent } = startServerSpan(
      this.tracer,
      spanNameOf(method, params, this.known),
      params,
    );
    const recording = span.isRecording();
    // Nothing records (no SDK registered): the request runs as if this layer were not there.
    if (!recording && !this.metrics.recording) return run();
    if (recording) {
      span.setAttributes(requestAttributes(id, method, params, connection, origin, this.known));
      span.setAttributes(this.metrics.server);
    }
    const served: ServedRequest = {
      id,
      method,
      params,
      connection,
      origin,
      start,
      span: recording ? span : undefined,
      ended: false,
    };
    return this.observe(served, parent, run);
  }

  /* Runs a request that something records, and records how it ended. */
  private async observe(
    served: ServedRequest,
    parent: Context,
    run: () => Promise<McpDispatchOutcome>,
  ): Promise<McpDispatchOutcome> {
    const { span, method, connection, origin } = served;
    const forget = this.remember(served);
    let outcome: McpDispatchOutcome;
    try {
      outcome = span ? await context.with(trace.setSpan(parent, span), run) : await run();
    } catch (error) {
      // The dispatcher never rejects; if it did, the span must still end.
      forget();
      this.finish(served, { errorType: '_OTHER' });
      throw error;
    }
    if (outcome.kind === 'parked' && outcome.answered) {
      const settle = () => {
        forget();
        this.finish(served, served.outcome ?? NO_ANSWER);
      };
      outcome.answered.then(settle, settle);
      return outcome;
    }
    forget();
    this.finish(served, outcome.kind === 'reply' ? outcomeOf(outcome.message) : NO_ANSWER);
    if (method === 'initialize' && outcome.kind === 'reply') {
      this.sessions.started(connection, origin, served.outcome);
    }
    return outcome;
  }

  /**
   * Handles one notification from the client (`handle`) inside a SERVER span
   * named by its method, its parent taken from `params._meta` as a request's
   * is: what it sets off (a roots refresh, say) joins the client's trace.
   */
  notification(
    method: string,
    params: unknown,
    connection: McpConnection,
    origin: McpMessageOrigin,
    handle: () => void,
  ): void {
    const { span, parent } = startServerSpan(this.tracer, methodLabel(method, this.known), params);
    if (!span.isRecording()) return handle();
    span.setAttributes(operationAttributes(method, params, connection, origin, this.known));
    try {
      context.with(trace.setSpan(parent, span), handle);
    } finally {
      span.end();
    }
  }

  /**
   * Sends one server→client request (a tool's `ctx.elicit`, `ctx.sample`,
   * `ctx.listRoots`) inside a CLIENT span, a child of the request that made
   * it, with the span's context in the request's `_meta` so the client's
   * handling joins the trace. An approval has its own span (`approvalWait`).
   */
  clientRequest(
    outbound: Pick<McpOutboundRequests, 'request'>,
    connection: McpConnection,
    method: string,
    params: object,
    options: OutboundRequestOptions,
  ): Promise<unknown> {
    const related = options.relatedRequestId;
    const served = related === undefined ? undefined : this.served.get(connection)?.get(related);
    const parent = served?.span;
    return tracedClientRequest(this.tracer, parent, outbound, connection, method, params, options);
  }

  /** A parked call's answer, as it goes out (before its outcome settles). */
  answeredLater(connection: McpConnection, id: RequestId, answer: unknown): void {
    const served = this.served.get(connection)?.get(id);
    if (served) served.outcome = outcomeOf(answer);
  }

  /**
   * One seam decision (or approval outcome) for `request`: counted, and an
   * event on the request's span. An ask's prompt stays out of it (it is
   * built from the arguments); a deny's reason and an approval's outcome go in.
   */
  decision(
    request: McpRequest,
    seam: McpAuditSeam,
    name: string,
    decision: McpAuditEvent['decision'],
    detail: string | undefined,
  ): void {
    this.metrics.decision(seam, decision);
    const span = this.served.get(request.connection)?.get(request.id)?.span;
    if (!span) return;
    const attributes: Record<string, string> = {
      [ATTR.seam]: seam,
      [ATTR.decision]: decision,
      [ATTR.decisionName]: name,
    };
    if (detail !== undefined && decision !== 'ask') attributes[ATTR.reason] = detail;
    if (request.principal) attributes[ATTR.principal] = request.principal.subject;
    span.addEvent(DECISION_EVENT, attributes);
  }

  /** The trace id of `request`'s span, when one records (for the audit events and logs). */
  traceIdOf(request: McpRequest): string | undefined {
    return this.served.get(request.connection)?.get(request.id)?.span?.spanContext().traceId;
  }

  /** Opens the child span that covers one approval wait for `tool`; end it with the verdict. */
  approvalWait(request: McpRequest, tool: string): McpApprovalWait {
    const parent = this.served.get(request.connection)?.get(request.id)?.span;
    this.parked++;
    return SpanApprovalWait.start(
      this.tracer,
      parent,
      tool,
      request.principal,
      () => this.parked--,
    );
  }

  onModuleDestroy(): void {
    this.metrics.close();
  }

  /* Indexes a request by connection and id; returns what removes it (only it). */
  private remember(served: ServedRequest): () => void {
    let byId = this.served.get(served.connection);
    if (!byId) this.served.set(served.connection, (byId = new Map()));
    // A second request reusing an in-flight id is refused by the dispatcher: the first keeps it.
    if (byId.has(served.id)) return noop;
    byId.set(served.id, served);
    return () => {
      if (byId.get(served.id) === served) byId.delete(served.id);
    };
  }

  private finish(served: ServedRequest, outcome: McpOperationOutcome): void {
    if (served.ended) return;
    served.ended = true;
    served.outcome = outcome;
    const { span } = served;
    if (!span && !this.metrics.recording) return;
    const attributes = operationAttributes(
      served.method,
      served.params,
      served.connection,
      served.origin,
      this.known,
    );
    Object.assign(attributes, this.metrics.server);
    const extra = outcomeAttributes(outcome);
    if (extra) Object.assign(attributes, extra);
    this.metrics.operationDuration.record((performance.now() - served.start) / 1000, attributes);
    if (!span) return;
    // The version agreed at `initialize` is known only once it is answered.
    const version = attributes[ATTR.protocolVersion];
    if (version !== undefined) span.setAttribute(ATTR.protocolVersion, version);
    if (extra) {
      span.setAttributes(extra);
      span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.message });
    }
    span.end();
  }
}

function noop(): void {}
