import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { MCP_NONCE_STORE, type McpNonceStore } from '../../core/stores/nonce-store.interface.js';
import type { McpOperatorAsk } from '../operator/operator-ask.interface.js';
import { MCP_OPERATOR_DESK, type McpOperatorDesk } from '../operator/operator-desk.interface.js';
import { WebhookDelivery } from './webhook.delivery.js';
import { McpWebhookLinks } from './webhook-links.service.js';
import { webhookNotice } from './webhook-notice.js';
import { MCP_WEBHOOK_SETTINGS, type McpWebhookSettings } from './webhook-settings.js';

/** DI token of the delivery bounds (tests shorten them). */
export const MCP_WEBHOOK_DELIVERY_BOUNDS = 'McpWarden:webhook-delivery-bounds';

/**
 * Announces each pending operator ask to `approvals.webhook.url`. The desk's
 * events span every instance, so each instance hears each ask; exactly one
 * sends its notice: the one that first consumes `webhook:<id>` in the shared
 * nonce store (Redis in cluster mode). The call never waits for the notice.
 * A notice still queued when its ask is decided or expires is dropped, and
 * one about to be sent is checked against the desk first: an operator is
 * never sent a notice for an ask that no longer waits.
 */
@Injectable()
export class McpWebhookNotifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpApprovals');
  private readonly delivery?: WebhookDelivery;
  private subscription?: Subscription;

  constructor(
    @Inject(MCP_WEBHOOK_SETTINGS) private readonly settings: McpWebhookSettings | null,
    private readonly links: McpWebhookLinks,
    @Inject(MCP_NONCE_STORE) private readonly nonces: McpNonceStore,
    @Inject(MCP_OPERATOR_DESK) private readonly desk: McpOperatorDesk,
    @Optional()
    @Inject(MCP_WEBHOOK_DELIVERY_BOUNDS)
    bounds?: ConstructorParameters<typeof WebhookDelivery>[3],
  ) {
    if (settings) {
      this.delivery = new WebhookDelivery(
        settings.url,
        settings.secret,
        this.logger,
        bounds,
        (id) => this.stillPending(id),
      );
    }
  }

  onModuleInit(): void {
    if (!this.settings) return;
    this.subscription = this.desk.events$.subscribe((event) => {
      if (event.type === 'pending') void this.announce(event.ask);
      else this.delivery!.forget(event.type === 'decided' ? event.ask.id : event.id);
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
    this.delivery?.close();
  }

  /**
   * Pending asks heard, and of those how many this instance claimed (and
   * queued) or left to another: `heard === claimed + skipped` once every claim
   * settled. For tests and health checks.
   */
  readonly counts = { heard: 0, claimed: 0, skipped: 0, failed: 0 };

  /** Notices queued or in flight (for tests and health checks). */
  get backlog(): number {
    return this.delivery?.backlog ?? 0;
  }

  /** Notices dropped unsent because their ask was decided or expired first. */
  get stale(): number {
    return this.delivery?.stale ?? 0;
  }

  private async stillPending(id: string): Promise<boolean> {
    const record = await this.desk.get(id);
    return record !== undefined && !record.decision && record.expiresAt > Date.now();
  }

  private async announce(ask: McpOperatorAsk): Promise<void> {
    this.counts.heard++;
    try {
      if (!(await this.nonces.consume('webhook:' + ask.id, ask.expiresAt))) {
        this.counts.skipped++;
        return;
      }
      const body = JSON.stringify(webhookNotice(ask, this.links.linksOf(ask)));
      this.delivery!.enqueue(body, `ask ${ask.id}`, {
        caller: ask.caller.key,
        askId: ask.id,
        expiresAt: ask.expiresAt,
      });
      this.counts.claimed++;
    } catch (error) {
      this.counts.failed++;
      // The nonce store is down or full: no instance can be sure it is the only sender.
      this.logger.warn(`Webhook notice of ask ${ask.id} not sent: ${(error as Error)?.name}`);
    }
  }
}
