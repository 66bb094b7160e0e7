import type { SqliteDatabase, SqliteStatement } from 'kysely';

/* What the two synchronous SQLite drivers have in common (node:sqlite and better-sqlite3). */
interface NativeStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...params: unknown[]): IterableIterator<unknown>;
}
interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  exec(sql: string): unknown;
  close(): void;
}
interface NodeSqliteStatement extends NativeStatement {
  columns(): unknown[];
}
interface NodeSqliteModule {
  DatabaseSync: new (file: string) => NativeDatabase;
  StatementSync: { prototype: Partial<NodeSqliteStatement> };
}

/** How long a write waits for another process's write lock before it fails (ms). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the SQLite file for Kysely's SqliteDialect: WAL (readers never wait for
 * the writer), a bounded wait for other processes' locks, foreign keys on,
 * and every commit synced (an acknowledged note survives a power cut).
 *
 * The driver is Node's built-in `node:sqlite` where the runtime has it
 * unflagged (22.13+, 24): nothing native to build, nothing tied to one Node
 * ABI, so one `npm ci` serves every runtime. Node 20 has no `node:sqlite`, so
 * there (only) the better-sqlite3 addon is loaded; it is never loaded where
 * the built-in exists, so an addon built for Node 20 cannot break 22 or 24.
 */
export async function openSqlite(file: string): Promise<SqliteDatabase> {
  const builtin = nodeSqlite();
  let native: NativeDatabase;
  let reads: (statement: NativeStatement) => boolean;
  if (builtin) {
    native = new builtin.DatabaseSync(file);
    reads = (statement) => (statement as NodeSqliteStatement).columns().length > 0;
  } else {
    const { default: BetterSqlite } = await import('better-sqlite3');
    native = new BetterSqlite(file) as unknown as NativeDatabase;
    reads = (statement) => (statement as unknown as { reader: boolean }).reader;
  }
  try {
    native.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    native.exec('PRAGMA journal_mode = WAL');
    native.exec('PRAGMA synchronous = FULL');
    native.exec('PRAGMA foreign_keys = ON');
  } catch (error) {
    native.close();
    throw error;
  }
  return adapt(native, reads);
}

/** Which driver this runtime gets (for the start-up line and the tests). */
export function sqliteDriverName(): 'node:sqlite' | 'better-sqlite3' {
  return nodeSqlite() ? 'node:sqlite' : 'better-sqlite3';
}

function nodeSqlite(): NodeSqliteModule | undefined {
  const found = withoutSqliteWarning(
    () => process.getBuiltinModule?.('node:sqlite') as NodeSqliteModule | undefined,
  );
  // 22.5–22.15 lack `columns()`, which tells a reading statement from a writing one.
  return typeof found?.StatementSync?.prototype?.columns === 'function' ? found : undefined;
}

/*
 * Node 22 marks node:sqlite experimental and says so on stderr, as two lines
 * of plain text in the middle of the service's JSON log: that one warning is
 * dropped (the driver is chosen knowingly, and tested on every runtime).
 */
function withoutSqliteWarning<T>(load: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string })?.type;
    if (type === 'ExperimentalWarning' && /SQLite/i.test(text)) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emit;
  }
}

/** Prepared statements kept per connection (the store issues a few dozen distinct queries). */
const MAX_PREPARED = 128;

/* Kysely's statement shape over either driver, statements reused by their SQL. */
function adapt(native: NativeDatabase, reads: (s: NativeStatement) => boolean): SqliteDatabase {
  // The store's queries are a handful of shapes: each is compiled by SQLite once, not per call.
  const prepared = new Map<string, SqliteStatement>();
  return {
    close: () => {
      prepared.clear();
      native.close();
    },
    prepare(sql: string): SqliteStatement {
      let statement = prepared.get(sql);
      if (!statement) {
        statement = compile(sql);
        if (prepared.size >= MAX_PREPARED) prepared.delete(prepared.keys().next().value!);
        prepared.set(sql, statement);
      }
      return statement;
    },
  };

  function compile(sql: string): SqliteStatement {
    // Kysely opens transactions with a deferred `begin`; two processes that both read, then
    // both try to write, would fail with SQLITE_BUSY at once (the busy timeout cannot help a
    // lock upgrade). Every transaction here writes, so it takes the write lock up front and
    // waits for it, bounded by the busy timeout.
    const statement = native.prepare(sql === 'begin' ? 'begin immediate' : sql);
    const reader = reads(statement);
    return {
      reader,
      all: (parameters) => statement.all(...parameters),
      run: (parameters) => statement.run(...parameters),
      iterate: (parameters) => statement.iterate(...parameters),
    };
  }
}
