import type { McpApprovalsSettings } from '../approvals-settings.interface.js';

/** DI token of the webhook's resolved settings (`null` when `approvals.webhook` is not set). */
export const MCP_WEBHOOK_SETTINGS = 'McpWarden:webhook-settings';

const DEFAULT_LINK_TTL_MS = 10 * 60_000;
/** A shorter secret is refused at boot: it signs links anyone holding one could otherwise forge. */
const MIN_SECRET_CHARS = 16;

/** `approvals.webhook` with its defaults applied and checked. */
export interface McpWebhookSettings {
  /** Where notices are POSTed. */
  readonly url: URL;
  readonly secret: string;
  readonly linkTtlMs: number;
  /** The public origin links are built on. */
  readonly publicUrl: URL;
  /** The links' path under the global prefix: `<console path>/link`. */
  readonly linkPath: string;
  /** The approver scope a link acts with. */
  readonly scope: string;
}

/**
 * Resolves `approvals.webhook` once, failing the boot on anything that would
 * make the links unusable or forgeable: no public origin to build them on, a
 * short secret, a URL that is not http(s).
 */
export function webhookSettingsOf({ approvals }: McpApprovalsSettings): McpWebhookSettings | null {
  const { webhook, console: consoleOptions } = approvals;
  if (!webhook) return null;
  if (typeof webhook.secret !== 'string' || webhook.secret.length < MIN_SECRET_CHARS) {
    throw new Error(`approvals.webhook.secret must be at least ${MIN_SECRET_CHARS} characters`);
  }
  const url = httpUrl(webhook.url, 'approvals.webhook.url');
  const publicUrl = httpUrl(
    webhook.publicUrl ?? consoleOptions?.oidc?.publicUrl,
    'approvals.webhook.publicUrl (or approvals.console.oidc.publicUrl)',
  );
  const ttl = webhook.linkTtlMs;
  return {
    url,
    secret: webhook.secret,
    linkTtlMs:
      typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : DEFAULT_LINK_TTL_MS,
    publicUrl,
    linkPath: linkPathOf(approvals.path),
    scope: approvals.scope,
  };
}

function httpUrl(value: string | undefined, name: string): URL {
  const url = URL.canParse(value ?? '') ? new URL(value!) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new Error(`${name} must be an http: or https: URL`);
  }
  return url;
}

function linkPathOf(consolePath: string): string {
  const trimmed = consolePath.replace(/^\/+|\/+$/g, '');
  return (trimmed ? '/' + trimmed : '') + '/link';
}
