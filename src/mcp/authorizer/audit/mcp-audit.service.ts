import { Injectable } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type { McpAuditEvent } from './mcp-audit-event.interface.js';

/** The stream of audit events; exposed to users as `McpServer.audit$`. */
@Injectable()
export class McpAuditService {
  private readonly subject = new Subject<McpAuditEvent>();
  readonly events$: Observable<McpAuditEvent> = this.subject.asObservable();

  record(event: Omit<McpAuditEvent, 'time'>): void {
    // Skip building the event when nobody listens: this runs on every call.
    if (!this.subject.observed) return;
    this.subject.next({ time: new Date().toISOString(), ...event });
  }
}
