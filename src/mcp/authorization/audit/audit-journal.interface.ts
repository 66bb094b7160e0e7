import type { McpAuditEvent } from './mcp-audit-event.interface.js';

/**
 * Where audit events are kept (the `audit/` layer, docs/audit.md): a port, so the seams record
 * durably without importing the sinks above them.
 */
export interface McpAuditJournal {
  /** `audit.failClosed`: a call waits for its decision record, and denies when it fails. */
  readonly failClosed: boolean;
  /**
   * Chains and queues one event. With `wait` (a call that must not run before its record is
   * kept, under `failClosed`), a promise that settles once every sink holds it, and rejects
   * when one cannot, or not within the journal's bound; otherwise nothing to wait on.
   */
  append(event: McpAuditEvent, wait: boolean): Promise<void> | undefined;
}

/** DI token of the journal (null without `audit.sinks`). */
export const MCP_AUDIT_JOURNAL = Symbol('McpWarden:audit-journal');

/** What the seams read of the `audit` option. */
export interface McpAuditRecording {
  /** `'digest'` (default) records the arguments' digest only; `'full'` the arguments too. */
  readonly arguments?: 'digest' | 'full';
}
