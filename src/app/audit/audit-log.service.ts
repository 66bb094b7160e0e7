import {
  Inject,
  Injectable,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { McpWarden, auditEventJson, type McpAuditEvent } from '../../index.js';
import { LogLineWriter } from '../logging/log-line.writer.js';
import { stderrLines } from '../logging/stderr-lines.js';
import { AuditFileSink, auditFileFromEnv } from './audit-file.sink.js';

/** Where the audit lines go: a file descriptor or a file's path. Default 2, stderr. */
export const AUDIT_LOG_DESTINATION = Symbol('AUDIT_LOG_DESTINATION');

/**
 * Writes every audit event as one JSON line to stderr: the service's log,
 * never stdout (which belongs to the protocol in stdio mode). The events of one
 * turn of the event loop are written as lines together, at its end (the check
 * phase), and handed to a writer that writes them off the event loop
 * (`LogLineWriter`): a write per call cost more than the call's own work, and a
 * write on the event loop waits for the pipe; and lines made in one pass, away
 * from each call's own work, cost less than each made as its event comes
 * (docs/notes-service.md, "Performance"). Events arrive frozen, so holding them
 * that long changes nothing they say. On stderr it is the writer the service's
 * logger uses too (`stderrLines()`). With AUDIT_LOG_FILE the same lines also go
 * to a size-rotated JSON Lines file (`AuditFileSink`).
 */
@Injectable()
export class AuditLogService implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;
  /** This turn's events, written at its end. */
  private pending: McpAuditEvent[] = [];
  private readonly file?: AuditFileSink;
  private readonly log: LogLineWriter;
  private readonly shared: boolean;

  constructor(
    private readonly server: McpWarden,
    @Optional() @Inject(AUDIT_LOG_DESTINATION) destination: number | string | null = null,
  ) {
    // On stderr, the writer the logger shares (never closed here: the logger outlives the app).
    const onStderr = destination === null || destination === 2;
    this.shared = onStderr;
    this.log = onStderr ? stderrLines() : new LogLineWriter(destination);
    const options = auditFileFromEnv();
    if (options) this.file = new AuditFileSink(options);
  }

  onApplicationBootstrap(): void {
    this.subscription = this.server.audit$.subscribe((event) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push(event);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscription?.unsubscribe();
    this.flush();
    await Promise.all([this.shared ? this.log.idle() : this.log.close(), this.file?.close()]);
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    let lines = '';
    // As JSON.stringify({ audit: event }) writes it, at a third of the cost (two events a call).
    for (const event of events) lines += '{"audit":' + auditEventJson(event) + '}\n';
    this.log.write(lines);
    this.file?.write(lines);
  }
}
