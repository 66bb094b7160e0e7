import type { McpAuditEvent } from '../authorization/audit/mcp-audit-event.interface.js';
import type { McpAuditCheckpointRecord } from './chain/audit-record.js';

/**
 * One chained record as a sink receives it: the exact line the chain hashed (the record with its
 * `instance`, `seq` and `prev`), and the fields a sink indexes.
 * @publicApi
 */
export interface McpAuditEntry {
  /** The record's JSON, one line: what `prev` of the next record is the SHA-256 of. */
  readonly line: string;
  /** The event (or checkpoint) the line holds, without its chain fields; frozen: every sink gets it. */
  readonly record: McpAuditEvent | McpAuditCheckpointRecord;
  readonly instance: string;
  readonly seq: number;
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
  /**
   * How long a batch may gather before it is written, when no call waits for it (without
   * `failClosed`). Default 0: at the next turn of the event loop.
   */
  readonly batchWindowMs?: number;
  /**
   * The shortest time between the starts of two writes, when no call waits for them (without
   * `failClosed`). Under load, records gather for at most this long; when the sink has been
   * quiet that long, a record is written at the next turn of the loop. For a sink whose every
   * write flushes to disk, this bounds the flushes a second. Default 0.
   */
  readonly minWriteIntervalMs?: number;
  /**
   * False for a sink that hands records on (to an exporter) and cannot say when they are kept:
   * `failClosed` waits only for the sinks that keep them, and a `failClosed` app needs one
   * (docs/audit.md). Default true: `write` resolves once the records are kept.
   */
  readonly keeps?: boolean;
  /** Called once before the first write, with the chain's instance id. */
  open?(instance: string): Promise<void>;
  /** Keeps every entry durably before it resolves (one fsync, one transaction). */
  write(entries: readonly McpAuditEntry[]): Promise<void>;
  /** Called once at shutdown, after the last write. */
  close?(): Promise<void>;
}
