import type { McpAuditOrigin } from '../../authorization/audit/audit-origin.js';

/**
 * One call waiting for an operator (docs/operator-approvals.md): what the console and the
 * webhook show, and what the approval store keeps until it is decided or
 * expires. Nothing here is a secret of the caller: the arguments appear only
 * as a redacted preview.
 * @publicApi
 */
export interface McpOperatorAsk {
  /** Unguessable id (at least 128 random bits, base64url). */
  readonly id: string;
  /** The tool the call wants to run. */
  readonly tool: string;
  /** The authorizer's prompt, bounded by `limits.maxPromptChars`. */
  readonly prompt: string;
  /** The caller: its subject when authenticated, else its quota key (client address or connection). */
  readonly caller: McpOperatorAskCaller;
  /**
   * The arguments with secrets redacted and long values cut, and a second line saying how many
   * keys, items and bytes the bounds left out, if any (see `argumentPreview`).
   */
  readonly preview: string;
  /** With a `policy`: the ids of the policies that asked (docs/policy.md). */
  readonly policies?: readonly string[];
  /** When the ask was recorded, ms since the epoch. */
  readonly createdAt: number;
  /** When it times out unanswered (`createdAt + elicitationTimeoutMs`), ms since the epoch. */
  readonly expiresAt: number;
  /**
   * The call as its audit records name it, when anything records (docs/audit.md): the desk's
   * record of the decision links to it, on whichever instance the operator decides.
   */
  readonly call?: McpAuditOrigin;
}

/**
 * Who made the call an operator is asked about.
 * @publicApi
 */
export interface McpOperatorAskCaller {
  /** The principal's subject; absent for an anonymous caller. */
  readonly subject?: string;
  /** The principal's issuer, when it has one (subjects are compared within one issuer). */
  readonly issuer?: string;
  /** How the caller is counted and shown when anonymous: `ip:…` or `conn:…`. */
  readonly key: string;
}

/**
 * An operator's decision on one ask.
 * @publicApi
 */
export interface McpOperatorDecision {
  readonly approved: boolean;
  /** The deciding operator's subject. */
  readonly operator: string;
  /** The operator's reason (required on a deny, optional on an approval), bounded. */
  readonly reason?: string;
  /** When it was decided, ms since the epoch. */
  readonly decidedAt: number;
  /** Where the decision came from. */
  readonly via: 'console' | 'webhook-link' | 'api';
}

/**
 * An ask as the store holds it: pending until `decision` is set. A decided
 * record stays until a call uses it (an approval runs one call) or until
 * `expiresAt` (a deny answers every retry of the call until then).
 * @publicApi
 */
export interface McpOperatorAskRecord extends McpOperatorAsk {
  readonly decision?: McpOperatorDecision;
}

/**
 * What happened to an ask, as the store announces it to every instance.
 * @publicApi
 */
export type McpOperatorAskEvent =
  | { readonly type: 'pending'; readonly ask: McpOperatorAsk }
  | { readonly type: 'decided'; readonly ask: McpOperatorAskRecord }
  | { readonly type: 'expired'; readonly id: string };
