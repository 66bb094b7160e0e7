import { Inject, Injectable } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type { McpSeamRequest } from '../seam-request.interface.js';
import {
  MCP_DECISION_TELEMETRY,
  type McpDecisionTelemetry,
} from './decision-telemetry.interface.js';
import type { McpAuditEvent, McpAuditSeam } from './mcp-audit-event.interface.js';
import type { McpPolicyTrace } from '../seam-policy.interface.js';

/** The stream of audit events; exposed to users as `McpWarden.audit$`. */
@Injectable()
export class McpAuditService {
  private readonly subject = new Subject<McpAuditEvent>();
  readonly events$: Observable<McpAuditEvent> = this.subject.asObservable();

  constructor(@Inject(MCP_DECISION_TELEMETRY) private readonly telemetry: McpDecisionTelemetry) {}

  /**
   * Records one decision taken for `request`. Nothing is allocated when
   * nobody listens: this runs on every call.
   */
  record(
    request: McpSeamRequest,
    seam: McpAuditSeam,
    name: string,
    decision: McpAuditEvent['decision'],
    detail?: string,
    operator?: string,
    trace?: McpPolicyTrace,
  ): void {
    this.telemetry.decision(request, seam, name, decision, detail);
    if (!this.subject.observed) return;
    const event: McpAuditEvent = {
      time: new Date().toISOString(),
      connId: request.connection.id,
      requestId: request.id,
      transport: request.transport,
      seam,
      name,
      decision,
    };
    const traceId = this.telemetry.traceIdOf(request);
    if (traceId) event.traceId = traceId;
    if (request.principal) event.principal = request.principal.subject;
    if (detail !== undefined) event.detail = detail;
    if (operator !== undefined) event.operator = operator;
    if (trace) {
      event.policies = trace.policies;
      event.policyVersion = trace.policyVersion;
      if (trace.shadow) event.shadow = trace.shadow;
    }
    this.subject.next(event);
  }
}
