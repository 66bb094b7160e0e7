import type { Observable } from 'rxjs';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpOperatorAskPage } from '../stores/approval-store.interface.js';
import type {
  McpOperatorAskEvent,
  McpOperatorAskRecord,
  McpOperatorDecision,
} from './operator-ask.interface.js';

/** Injection token of the operator desk. */
export const MCP_OPERATOR_DESK = Symbol('McpWarden:operator-desk');

/**
 * Why the desk refused a decision.
 * @publicApi
 */
export type McpOperatorDeskProblem =
  /** Unknown, expired, or its call already ended. */
  | 'not found'
  | 'already decided'
  /** The operator made the call: nobody approves their own ask. */
  | 'own call'
  /** The operator lacks the approver scope. */
  | 'not an approver'
  /** A deny needs a reason. */
  | 'reason required';

/**
 * What the console, the webhook links and an app's own code use to see and
 * decide operator asks. It enforces the four-eyes rule itself, so no caller
 * of it can get around it: the operator must hold the approver scope and must
 * not be the caller (same subject and issuer).
 * @publicApi
 */
export interface McpOperatorDesk {
  /** Pending asks, oldest first. */
  pending(options?: { cursor?: string; limit?: number }): Promise<McpOperatorAskPage>;
  /** One ask, pending or decided. */
  get(id: string): Promise<McpOperatorAskRecord | undefined>;
  /** Decides an ask; the first decision wins on every instance. */
  decide(
    id: string,
    operator: McpPrincipal,
    input: { approve: boolean; reason?: string; via: McpOperatorDecision['via'] },
  ): Promise<
    { ok: true; record: McpOperatorAskRecord } | { ok: false; problem: McpOperatorDeskProblem }
  >;
  /** Pending, decided and expired asks as they happen, on every instance. */
  readonly events$: Observable<McpOperatorAskEvent>;
}
