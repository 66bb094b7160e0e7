import type {
  McpOperatorAsk,
  McpOperatorAskEvent,
  McpOperatorAskRecord,
  McpOperatorDecision,
} from '../operator/operator-ask.interface.js';

/** Injection token of the approval store. */
export const MCP_APPROVAL_STORE = Symbol('McpWarden:approval-store');

/**
 * One page of pending asks, oldest first.
 * @publicApi
 */
export interface McpOperatorAskPage {
  readonly asks: readonly McpOperatorAsk[];
  /** How many asks are pending in all. */
  readonly total: number;
  /** Pass back to get the next page; absent on the last one. */
  readonly nextCursor?: string;
}

/**
 * Where operator asks wait (docs/operator-approvals.md): in memory by default, in Redis in
 * cluster mode, so a decision taken on any instance releases the call on the
 * instance where it waits. Records are bounded in number and size and expire
 * at `expiresAt`; a store never holds one forever.
 * @publicApi
 */
export interface McpApprovalStore {
  /**
   * Records a pending ask; false when the store is full (the call is then denied, never
   * dropped), or when `binding` is given and a live ask already holds it (the call then
   * waits on that ask, see `bound`). Asks are bound so that a call retried after its
   * approval finds it (docs/operator-approvals.md: the pending answer).
   */
  add(ask: McpOperatorAsk, binding?: string): Promise<boolean>;
  /** The record, pending or decided; undefined once expired or unknown. */
  get(id: string): Promise<McpOperatorAskRecord | undefined>;
  /**
   * The live ask recorded under `binding` (the caller, the tool and the digest of the
   * arguments: `operatorBinding`), pending or decided; undefined when none is.
   */
  bound(binding: string): Promise<McpOperatorAskRecord | undefined>;
  /**
   * Removes an ask and returns its record, atomically across instances: of every call
   * taking the same ask, exactly one gets the record, the others undefined. This is how
   * an approval is used, so it runs one call.
   */
  take(id: string): Promise<McpOperatorAskRecord | undefined>;
  /** Pending asks, oldest first; `limit` is capped by the store. */
  pending(options?: { cursor?: string; limit?: number }): Promise<McpOperatorAskPage>;
  /**
   * Decides a pending ask. The first decision wins, atomically across
   * instances: the record with its decision when this one took effect,
   * undefined when the ask is unknown, expired or already decided.
   */
  decide(id: string, decision: McpOperatorDecision): Promise<McpOperatorAskRecord | undefined>;
  /** Removes an ask (its call ended: answered, cancelled or its connection closed). */
  remove(id: string): Promise<void>;
  /** Every instance's events; returns the unsubscribe function. */
  watch(listener: (event: McpOperatorAskEvent) => void): () => void;
  /** Releases the store's connections and timers. */
  close?(): Promise<void>;
}
