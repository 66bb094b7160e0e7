// Type only: the app that uses this sink brings Kysely (an optional peer dependency).
import type { CompiledQuery, Kysely } from 'kysely';
import type { McpAuditEntry, McpAuditSink } from '../audit-sink.interface.js';

/** `McpAuditSinks.sql()` options. @publicApi */
export interface McpSqlSinkOptions {
  /**
   * The app's Kysely instance, on PostgreSQL or SQLite; or a function that returns it, for an
   * app that opens its database in a lifecycle hook (it is called when the app has booted).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any> | (() => Kysely<any>);
  /** Default `mcp_audit_records`. */
  table?: string;
  /**
   * How long a batch gathers when no call waits for it (without `failClosed`). Default 50 ms:
   * SQLite's drivers are synchronous, so each INSERT (and its fsync) holds the event loop, and
   * a few large transactions hold it far less than many small ones.
   */
  batchWindowMs?: number;
}

/** The table's name, checked: it is spliced into DDL. */
export function auditTableName(table = 'mcp_audit_records'): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(table))
    throw new Error(`audit table name "${table}" is not an identifier`);
  return table;
}

/**
 * A PostgreSQL or SQLite table, one row per record: the exact line the chain hashed, plus the
 * columns `mcp-warden audit query` filters on. A batch is one transaction, so it is kept whole
 * or not at all; the journal retries it. Primary key (instance, seq): a record is never kept
 * twice, and a retry of a batch already kept changes nothing.
 */
export class SqlTableSink implements McpAuditSink {
  readonly name = 'sql';
  readonly batchWindowMs: number;
  private readonly table: string;

  constructor(private readonly options: McpSqlSinkOptions) {
    this.table = auditTableName(options.table);
    this.batchWindowMs = options.batchWindowMs ?? 50;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private db!: Kysely<any>;

  async open(): Promise<void> {
    const { db } = this.options;
    this.db = typeof db === 'function' ? db() : db;
    try {
      await this.create();
    } catch (error) {
      // Instances that start together race to create the table (PostgreSQL then refuses the
      // loser's IF NOT EXISTS with a duplicate key): the table being there is what matters.
      await this.db
        .selectFrom(this.table)
        .select('seq')
        .limit(1)
        .execute()
        .catch(() => {
          throw error;
        });
    }
  }

  /* The table and its index in one transaction: one commit (and fsync) at boot, not two. */
  private async create(): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable(this.table)
        .ifNotExists()
        .addColumn('instance', 'text', (column) => column.notNull())
        .addColumn('seq', 'bigint', (column) => column.notNull())
        .addColumn('time', 'text', (column) => column.notNull())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('principal', 'text')
        .addColumn('name', 'text')
        .addColumn('decision', 'text')
        .addColumn('line', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint(`${this.table}_pk`, ['instance', 'seq'])
        .execute();
      await trx.schema
        .createIndex(`${this.table}_time`)
        .ifNotExists()
        .on(this.table)
        .column('time')
        .execute();
    });
  }

  /**
   * Keeps a batch in one transaction, as INSERTs of fixed sizes whose SQL is compiled once: a
   * statement of a new size is parsed again by the database (and by Kysely), which cost more
   * than the rows themselves on SQLite (docs/audit.md, "Performance").
   */
  async write(entries: readonly McpAuditEntry[]): Promise<void> {
    const rows = entries.map(auditRow);
    const queries: CompiledQuery[] = [];
    let at = 0;
    for (const size of CHUNK_SIZES) {
      for (; rows.length - at >= size; at += size) queries.push(this.insert(rows, at, size));
    }
    if (queries.length === 1) {
      const { numAffectedRows } = await this.db.executeQuery(queries[0]!);
      if (Number(numAffectedRows ?? 0) < rows.length) await this.sameAsKept(this.db, entries);
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      let inserted = 0;
      for (const query of queries) {
        inserted += Number((await trx.executeQuery(query)).numAffectedRows ?? 0);
      }
      if (inserted < rows.length) await this.sameAsKept(trx, entries);
    });
  }

  /*
   * Some rows were there already. A batch whose commit went through but whose answer was lost
   * (the connection cut after COMMIT) is retried by the journal: its rows are kept once. Any
   * other record at one of its places fails the batch, and so its transaction.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async sameAsKept(db: Kysely<any>, entries: readonly McpAuditEntry[]): Promise<void> {
    const { instance } = entries[0]!;
    const seqs = entries.map((entry) => entry.seq);
    const kept = await db
      .selectFrom(this.table)
      .select(['seq', 'line'])
      .where('instance', '=', instance)
      .where('seq', '>=', Math.min(...seqs))
      .where('seq', '<=', Math.max(...seqs))
      .execute();
    const lines = new Map(kept.map((row) => [Number(row.seq), row.line as string]));
    for (const entry of entries) {
      if (lines.get(entry.seq) !== entry.line) {
        throw new Error(`another record is kept at ${entry.instance}#${entry.seq}`);
      }
    }
  }

  /* An n-row INSERT as Kysely compiled it, by n: its SQL is reused with new parameters. */
  private readonly statements = new Map<number, CompiledQuery>();

  private insert(rows: readonly AuditRow[], at: number, size: number): CompiledQuery {
    const chunk = rows.slice(at, at + size);
    const parameters = chunk.flatMap((row) => AUDIT_COLUMNS.map((column) => row[column]));
    const compiledBefore = this.statements.get(size);
    if (compiledBefore) return { ...compiledBefore, parameters };
    const compiled = this.db
      .insertInto(this.table)
      .values(chunk)
      .onConflict((conflict) => conflict.doNothing())
      .compile();
    const reusable =
      compiled.parameters.length === parameters.length &&
      compiled.parameters.every((value, index) => value === parameters[index]);
    // Should a Kysely release order the parameters otherwise, each batch is compiled anew.
    if (reusable) this.statements.set(size, compiled);
    return compiled;
  }
}

/** Batches are cut into INSERTs of these sizes: a handful of statements, each prepared once. */
const CHUNK_SIZES = [64, 16, 4, 1] as const;

/** The table's columns, in the order the INSERTs (and the SQLite sink's thread) give them. */
export const AUDIT_COLUMNS = [
  'instance',
  'seq',
  'time',
  'kind',
  'principal',
  'name',
  'decision',
  'line',
] as const;

type AuditRow = Record<(typeof AUDIT_COLUMNS)[number], string | number | null>;

function auditRow({ line, record, instance, seq }: McpAuditEntry): AuditRow {
  const event = record as { principal?: string; name?: string; decision?: string };
  return {
    instance,
    seq,
    time: record.time,
    kind: record.kind,
    principal: event.principal ?? null,
    name: event.name ?? null,
    decision: event.decision ?? null,
    line,
  };
}
