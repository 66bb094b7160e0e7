import type { McpOperatorAsk, McpOperatorAskCaller } from '../operator/operator-ask.interface.js';

/**
 * The JSON body POSTed to `approvals.webhook.url` for each pending operator
 * ask. Whoever opens `approveUrl` or `denyUrl` decides the ask: route the
 * webhook only to people accountable for that decision.
 * @publicApi
 */
export interface McpWebhookNotice {
  readonly type: 'approval.pending';
  /** The ask's id (as the console and the audit name it). */
  readonly id: string;
  readonly tool: string;
  readonly prompt: string;
  readonly caller: McpOperatorAskCaller;
  /** The arguments, redacted and cut. */
  readonly preview: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** When the call stops waiting, ISO 8601. */
  readonly expiresAt: string;
  /** Opens a confirmation page; approving takes a button press there (a GET never decides). */
  readonly approveUrl: string;
  /** Opens a confirmation page with a reason field. */
  readonly denyUrl: string;
  /** When both links stop working, ISO 8601 (never after `expiresAt`). */
  readonly linksExpireAt: string;
}

/** The notice of `ask` with its two links. */
export function webhookNotice(
  ask: McpOperatorAsk,
  links: { approveUrl: string; denyUrl: string; exp: number },
): McpWebhookNotice {
  return {
    type: 'approval.pending',
    id: ask.id,
    tool: ask.tool,
    prompt: ask.prompt,
    caller: ask.caller,
    preview: ask.preview,
    createdAt: new Date(ask.createdAt).toISOString(),
    expiresAt: new Date(ask.expiresAt).toISOString(),
    approveUrl: links.approveUrl,
    denyUrl: links.denyUrl,
    linksExpireAt: new Date(links.exp).toISOString(),
  };
}
