import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { ElicitResult } from '../../core/protocol/mcp-types.js';

/**
 * What `ctx.elicitUrl()` resolves with: the client's answer and the id the
 * elicitation was sent under. `accept` means the user agreed to open the page,
 * not that they finished there: call `McpUrlElicitations.complete(elicitationId)`
 * when they do.
 * @publicApi
 */
export type McpUrlElicitResult = ElicitResult & { elicitationId: string };

/**
 * The URL for `ctx.elicitUrl()`: as is, or built from the elicitation's id
 * (so the page can tell which elicitation it serves).
 * @publicApi
 */
export type McpElicitationUrl = string | ((elicitationId: string) => string);

/**
 * An open URL-mode elicitation, as `McpUrlElicitations.find()` reports it.
 * `principal` is who it was sent for: the page behind `url` must check that
 * the user who opens it is that same one (spec: phishing), never trusting
 * the id alone.
 * @publicApi
 */
export interface McpUrlElicitationInfo {
  readonly elicitationId: string;
  readonly url: string;
  readonly message: string;
  /** The connection that was sent it, the only one its completion goes to. */
  readonly connId: string;
  readonly principal?: McpPrincipal;
}
