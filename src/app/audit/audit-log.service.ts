import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { McpWarden, auditEventJson } from '../../index.js';
import { AuditFileSink, auditFileFromEnv } from './audit-file.sink.js';

/**
 * Writes every audit event as one JSON line to stderr: the service's log,
 * never stdout (which belongs to the protocol in stdio mode). Lines of one
 * turn of the event loop leave in one write, at its end (the check phase):
 * stderr writes to a pipe are synchronous, and a write per call (as at the
 * end of each tick) cost more than the call's own work. With AUDIT_LOG_FILE
 * the same lines also go to a size-rotated JSON Lines file (`AuditFileSink`).
 */
@Injectable()
export class AuditLogService implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;
  private pending = '';
  private readonly file?: AuditFileSink;

  constructor(private readonly server: McpWarden) {
    const options = auditFileFromEnv();
    if (options) this.file = new AuditFileSink(options);
  }

  onApplicationBootstrap(): void {
    this.subscription = this.server.audit$.subscribe((event) => {
      if (this.pending === '') setImmediate(() => this.flush());
      // As JSON.stringify({ audit: event }) writes it, at a third of the cost (two events a call).
      this.pending += '{"audit":' + auditEventJson(event) + '}\n';
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscription?.unsubscribe();
    this.flush();
    await this.file?.close();
  }

  private flush(): void {
    if (this.pending === '') return;
    process.stderr.write(this.pending);
    this.file?.write(this.pending);
    this.pending = '';
  }
}
