import { Inject, Injectable, Optional } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import type { McpOperatorAsk } from '../operator/operator-ask.interface.js';
import { WebhookLinkCodec, type WebhookLinkDecision } from './webhook-link.codec.js';
import { MCP_WEBHOOK_SETTINGS, type McpWebhookSettings } from './webhook-settings.js';

/**
 * Makes and reads the one-time approve/deny links of a webhook notice, at
 * `<public origin><global prefix><console path>/link/<token>`.
 */
@Injectable()
export class McpWebhookLinks {
  readonly codec?: WebhookLinkCodec;

  constructor(
    @Inject(MCP_WEBHOOK_SETTINGS) private readonly settings: McpWebhookSettings | null,
    @Optional() private readonly config?: ApplicationConfig,
  ) {
    if (settings) this.codec = new WebhookLinkCodec(settings.secret);
  }

  /** The route's path as the adapter sees it, global prefix included (no token). */
  routePath(): string {
    const prefix = (this.config?.getGlobalPrefix() ?? '').replace(/^\/+|\/+$/g, '');
    return (prefix ? '/' + prefix : '') + this.settings!.linkPath;
  }

  /** Both links of `ask`, valid until the link TTL or the ask's expiry, whichever is first. */
  linksOf(
    ask: McpOperatorAsk,
    now = Date.now(),
  ): { approveUrl: string; denyUrl: string; exp: number } {
    const exp = Math.min(now + this.settings!.linkTtlMs, ask.expiresAt);
    return { approveUrl: this.url(ask, 'approve', exp), denyUrl: this.url(ask, 'deny', exp), exp };
  }

  private url(ask: McpOperatorAsk, decision: WebhookLinkDecision, exp: number): string {
    const token = this.codec!.encode({
      askId: ask.id,
      decision,
      exp,
      jti: WebhookLinkCodec.newJti(),
    });
    const base = this.settings!.publicUrl;
    // The public URL may carry a path of its own (a proxy's mount point): keep it.
    const mount = base.pathname.replace(/\/+$/, '');
    return `${base.origin}${mount}${this.routePath()}/${token}`;
  }
}
