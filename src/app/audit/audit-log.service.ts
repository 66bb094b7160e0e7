import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { McpWarden } from '../../index.js';

/**
 * Writes every audit event as one JSON line to stderr: the service's log,
 * never stdout (which belongs to the protocol in stdio mode). Lines of one
 * tick leave in one write: stderr writes to a pipe are synchronous, and a
 * write per call would cost more than the call.
 */
@Injectable()
export class AuditLogService implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;
  private pending = '';

  constructor(private readonly server: McpWarden) {}

  onApplicationBootstrap(): void {
    this.subscription = this.server.audit$.subscribe((event) => {
      if (this.pending === '') process.nextTick(() => this.flush());
      this.pending += JSON.stringify({ audit: event }) + '\n';
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
    this.flush();
  }

  private flush(): void {
    if (this.pending === '') return;
    process.stderr.write(this.pending);
    this.pending = '';
  }
}
