import type { McpAuditSink } from './audit-sink.interface.js';
import { JsonlFileSink, type McpJsonlSinkOptions } from './sinks/jsonl-file.sink.js';
import { OtelLogsSink } from './sinks/otel-logs.sink.js';
import { SqlTableSink, type McpSqlSinkOptions } from './sinks/sql-table.sink.js';
import { SqliteWorkerSink, type McpSqliteSinkOptions } from './sinks/sqlite-worker.sink.js';

/**
 * The audit sinks for `audit.sinks` (docs/audit.md).
 *
 * @example
 * McpModule.forRoot({
 *   name: 'notes',
 *   version: '1.0.0',
 *   audit: { sinks: [McpAuditSinks.jsonl({ dir: 'audit' })], failClosed: true },
 * });
 * @publicApi
 */
export const McpAuditSinks = {
  /** Append-only JSON Lines files, rotated by size or age, fsynced per batch. */
  jsonl(options: McpJsonlSinkOptions): McpAuditSink {
    return new JsonlFileSink(options);
  },
  /**
   * A table in the app's PostgreSQL or SQLite database, through its Kysely instance. On SQLite,
   * whose drivers are synchronous, each commit holds the event loop: prefer `sqlite()`.
   */
  sql(options: McpSqlSinkOptions): McpAuditSink {
    return new SqlTableSink(options);
  },
  /**
   * The same table in a SQLite file, written by a thread of its own with its own connection:
   * commits and their fsyncs never hold the event loop.
   */
  sqlite(options: McpSqliteSinkOptions): McpAuditSink {
    return new SqliteWorkerSink(options);
  },
  /** OpenTelemetry log records, through the app's registered `LoggerProvider`. */
  otelLogs(): McpAuditSink {
    return new OtelLogsSink();
  },
};
