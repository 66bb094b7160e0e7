import { Injectable } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type { McpTransportKind } from '../authorizer.interface.js';
import type { McpAuditEvent, McpAuditSeam } from './mcp-audit-event.interface.js';

/** The stream of audit events; exposed to users as `McpServer.audit$`. */
@Injectable()
export class McpAuditService {
  private readonly subject = new Subject<McpAuditEvent>();
  readonly events$: Observable<McpAuditEvent> = this.subject.asObservable();

  /**
   * Records one decision. The arguments are positional so that nothing is
   * allocated when nobody listens: this runs on every call.
   */
  record(
    connId: string,
    transport: McpTransportKind,
    seam: McpAuditSeam,
    name: string,
    decision: McpAuditEvent['decision'],
    detail?: string,
  ): void {
    if (!this.subject.observed) return;
    const event: McpAuditEvent = {
      time: new Date().toISOString(),
      connId,
      transport,
      seam,
      name,
      decision,
    };
    if (detail !== undefined) event.detail = detail;
    this.subject.next(event);
  }
}
