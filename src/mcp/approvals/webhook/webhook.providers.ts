import type { Provider } from '@nestjs/common';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import { McpWebhookLinkEndpoint } from './webhook-link.endpoint.js';
import { McpWebhookLinkRoutes } from './webhook-link.routes.js';
import { McpWebhookLinks } from './webhook-links.service.js';
import { McpWebhookNotifier } from './webhook.notifier.js';
import { MCP_WEBHOOK_SETTINGS, webhookSettingsOf } from './webhook-settings.js';

/**
 * The approvals webhook (`approvals.webhook`), part of the HTTP transport: the
 * signed notice of each pending operator ask and its one-time links. Every
 * part is inert when the option is absent.
 */
export const WEBHOOK_PROVIDERS: Provider[] = [
  { provide: MCP_WEBHOOK_SETTINGS, useFactory: webhookSettingsOf, inject: [MCP_OPTIONS] },
  McpWebhookLinks,
  McpWebhookLinkEndpoint,
  McpWebhookLinkRoutes,
  McpWebhookNotifier,
];
