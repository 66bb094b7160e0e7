import { Injectable } from '@nestjs/common';
import { McpTelemetry } from '../../telemetry/mcp-telemetry.service.js';
import { Subject, type Observable } from 'rxjs';
import type { McpRequest } from '../../engine/dispatch/mcp-request.interface.js';
import type { McpAuditEvent, McpAuditSeam } from './mcp-audit-event.interface.js';

/** The stream of audit events; exposed to users as `McpWarden.audit$`. */
@Injectable()
export class McpAuditService {
  private readonly subject = new Subject<McpAuditEvent>();
  readonly events$: Observable<McpAuditEvent> = this.subject.asObservable();

  constructor(private readonly telemetry: McpTelemetry) {}

  /**
   * Records one decision taken for `request`. Nothing is allocated when
   * nobody listens: this runs on every call.
   */
  record(
    request: McpRequest,
    seam: McpAuditSeam,
    name: string,
    decision: McpAuditEvent['decision'],
    detail?: string,
    operator?: string,
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
    this.subject.next(event);
  }
}
