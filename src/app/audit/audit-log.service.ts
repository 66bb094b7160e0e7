import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { McpServer } from '../../index.js';

/**
 * Writes every audit event as one JSON line to stderr: the service's log,
 * never stdout (which belongs to the protocol in stdio mode).
 */
@Injectable()
export class AuditLogService implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(private readonly server: McpServer) {}

  onApplicationBootstrap(): void {
    this.subscription = this.server.audit$.subscribe((event) => {
      process.stderr.write(JSON.stringify({ audit: event }) + '\n');
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }
}
