import type { McpAuditRecord } from './chain/audit-record.js';

/** One chained record as a sink receives it: the exact line the chain hashed, and its fields. */
export interface McpAuditEntry {
  /** The record's JSON, one line: what `prev` of the next record is the SHA-256 of. */
  readonly line: string;
  readonly record: McpAuditRecord;
}

/**
 * Where audit records are kept (docs/audit.md): a port with three implementations in
 * `McpAuditSinks`. The journal writes one batch at a time per sink, in chain order, and
 * retries a batch that failed, so a sink only needs `write` to be all-or-nothing.
 * @publicApi
 */
export interface McpAuditSink {
  /** For logs and metrics (`jsonl`, `sql`, `otel-logs`). */
  readonly name: string;
  /** Called once before the first write, with the chain's instance id. */
  open?(instance: string): Promise<void>;
  /** Keeps every entry durably before it resolves (one fsync, one transaction). */
  write(entries: readonly McpAuditEntry[]): Promise<void>;
  /** Called once at shutdown, after the last write. */
  close?(): Promise<void>;
}
