import type { McpAuditEntry } from './audit-sink.interface.js';
import type { McpAuditChainReport } from './verify/chain-verifier.js';

/** One sink's state, as the console shows it. */
export interface McpAuditSinkState {
  readonly name: string;
  readonly healthy: boolean;
  /** Records queued for it, not yet kept. */
  readonly pending: number;
  /** The last position of the chain it has kept. */
  readonly keptSeq: number;
}

/** This instance's chain, as the console shows it. */
export interface McpAuditChainState {
  readonly instance: string;
  /** Records written to the chain so far (checkpoints included). */
  readonly seq: number;
  readonly signed: boolean;
  /** The position of the last checkpoint, when one was signed. */
  readonly lastCheckpoint?: number;
  readonly sinks: readonly McpAuditSinkState[];
  /** The recent window checked as `mcp-warden audit verify` checks a log (signatures included). */
  readonly recent: McpAuditChainReport;
}

/**
 * What the operator console reads of the journal (its Audit page, docs/audit.md): the recent
 * records this instance wrote, and its chain's state. The journal keeps the window in memory,
 * bounded; the sinks hold everything.
 */
export interface McpAuditView {
  /** Starts keeping the recent window: the console calls it when it is on. */
  keepRecent(): void;
  /** The recent window (empty until `keepRecent`). */
  recentRecords(): readonly McpAuditEntry[];
  chainState(): McpAuditChainState;
}

/** DI token of the view (null without `audit.sinks`). */
export const MCP_AUDIT_VIEW = Symbol('McpWarden:audit-view');
