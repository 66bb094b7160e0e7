import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { McpWarden } from '../../src/index.js';

/** Writes every seam decision and elicitation outcome as a JSON line on stderr. */
@Injectable()
export class AuditLog implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription?: Subscription;

  constructor(private readonly warden: McpWarden) {}

  onApplicationBootstrap(): void {
    // { time, connId, transport, principal?, seam, name, decision, detail? }
    this.subscription = this.warden.audit$.subscribe((event) =>
      process.stderr.write(`${JSON.stringify(event)}\n`),
    );
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
