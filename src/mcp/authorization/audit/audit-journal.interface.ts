import type { McpAuditEvent } from './mcp-audit-event.interface.js';

/**
 * Where audit events are kept (the `audit/` layer, docs/audit.md): a port, so the seams record
 * durably without importing the sinks above them.
 */
export interface McpAuditJournal {
  /** `audit.failClosed`: a call waits for its decision record, and denies when it fails. */
  readonly failClosed: boolean;
  /**
   * Chains and queues one event. Settles once every sink holds it (rejects when it cannot, or
   * not within the journal's bound); without `failClosed` nobody needs to wait on it.
   */
  append(event: McpAuditEvent): Promise<void>;
}

/** DI token of the journal (null without `audit.sinks`). */
export const MCP_AUDIT_JOURNAL = Symbol('McpWarden:audit-journal');

/** What the seams read of the `audit` option. */
export interface McpAuditRecording {
  /** `'digest'` (default) records the arguments' digest only; `'full'` the arguments too. */
  readonly arguments?: 'digest' | 'full';
}
