import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type MigrationResultSet,
} from 'kysely';
import { mkdir } from 'node:fs/promises';
import { NotesMigrationProvider } from './notes.migrations.js';
import {
  describeNotesDatabase,
  sqliteFile,
  type NotesDatabaseOptions,
} from './notes-database.options.js';
import type { NotesDialect, NotesTables } from './notes.schema.js';
import { openSqlite } from './sqlite.connection.js';
import { stderrLines } from '../logging/stderr-lines.js';

/** Connections one instance holds to PostgreSQL at most. */
const POSTGRES_POOL_SIZE = 10;
/** How long a query may wait for a connection, and may run, before it fails (ms). */
const POSTGRES_TIMEOUT_MS = 10_000;

/** An open, migrated notes database. */
export interface NotesDatabase {
  readonly db: Kysely<NotesTables>;
  readonly dialect: NotesDialect;
}

/** Says on stderr where the notes live, and how many came from a former notes.json. */
export function announceNotesDatabase(options: NotesDatabaseOptions, imported?: number): void {
  let text = `mcp-warden: notes in ${describeNotesDatabase(options)}\n`;
  if (imported !== undefined) text += `mcp-warden: imported ${imported} notes from notes.json\n`;
  stderrLines().write(text);
}

/** Opens the database the options name and brings its schema to the latest migration. */
export async function openNotesDatabase(options: NotesDatabaseOptions): Promise<NotesDatabase> {
  const opened =
    options.kind === 'sqlite'
      ? await openSqliteDatabase(options.dataDir)
      : await openPostgresDatabase(options.url);
  try {
    await migrate(opened);
  } catch (error) {
    await opened.db.destroy();
    throw error;
  }
  return opened;
}

async function openSqliteDatabase(dataDir: string): Promise<NotesDatabase> {
  // Notes are the user's own: the folder is theirs alone.
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const database = await openSqlite(sqliteFile({ dataDir }));
  return {
    db: new Kysely<NotesTables>({ dialect: new SqliteDialect({ database }) }),
    dialect: 'sqlite',
  };
}

/* `pg` is imported only here: an embedded (SQLite) deployment never loads it. */
async function openPostgresDatabase(url: string): Promise<NotesDatabase> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_SIZE,
    connectionTimeoutMillis: POSTGRES_TIMEOUT_MS,
    statement_timeout: POSTGRES_TIMEOUT_MS,
  });
  // An idle connection the server drops (restart, failover) must not crash the process: the pool
  // discards it and the next query opens a fresh one.
  pool.on('error', (error) => {
    stderrLines().write(`mcp-warden: notes database connection lost: ${error.message}\n`);
  });
  return {
    db: new Kysely<NotesTables>({ dialect: new PostgresDialect({ pool }) }),
    dialect: 'postgres',
  };
}

/* Several instances may start at once: Kysely's Migrator serialises them (PostgreSQL: an advisory lock; SQLite: the write lock). */
async function migrate({ db, dialect }: NotesDatabase): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new NotesMigrationProvider(dialect),
    // Without a schema the Migrator looks for its table in every schema of the database, so
    // another application's (or another store's) migrations would count as ours.
    migrationTableSchema: dialect === 'postgres' ? await currentSchema(db) : undefined,
  });
  let outcome: MigrationResultSet;
  const retryUntil = performance.now() + MIGRATION_RETRY_MS;
  for (;;) {
    outcome =
      dialect === 'sqlite'
        ? await exclusively(db, () => migrator.migrateToLatest())
        : await migrator.migrateToLatest();
    if (performance.now() >= retryUntil) break;
    if (!(await droppedElsewhere(db, dialect, outcome.error))) break;
  }
  const { error, results } = outcome;
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`notes database migration${failed ? ` ${failed}` : ''} failed: ${reason}`);
  }
}

/*
 * How long a PostgreSQL migration that met another schema being dropped is run again. A time,
 * not a count of runs: each run reads the whole catalog, and the busier the database (the more
 * schemas it holds, the more often others drop theirs), the more runs can meet a drop.
 */
const MIGRATION_RETRY_MS = 10_000;
/* PostgreSQL's invalid_schema_name. */
const SCHEMA_DOES_NOT_EXIST = '3F000';

/*
 * Kysely's Migrator looks for its tables through the dialect's introspector. The introspector
 * reads every table of every schema in the database, and calls has_schema_privilege and
 * pg_get_serial_sequence with each schema's name. If another session drops a schema during
 * that read (another application's, or another test's), PostgreSQL answers "schema ... does not
 * exist" for the schema that went. The migration then fails although nothing is wrong with ours.
 * It is run again, as long as our own schema is still there.
 */
async function droppedElsewhere(
  db: Kysely<NotesTables>,
  dialect: NotesDialect,
  error: unknown,
): Promise<boolean> {
  if (dialect !== 'postgres' || (error as { code?: unknown })?.code !== SCHEMA_DOES_NOT_EXIST) {
    return false;
  }
  const ours = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return Boolean(ours.rows[0]?.schema);
}

/*
 * Kysely runs SQLite migrations outside any transaction and without a lock (its SQLite adapter
 * claims no transactional DDL and one connection), so two processes starting on one file would
 * both create the tables. SQLite's DDL is transactional: the whole run goes in one BEGIN
 * IMMEDIATE on the dialect's single connection, and a second process waits for the first (bounded
 * by the busy timeout), then finds the migrations done.
 */
async function exclusively(
  db: Kysely<NotesTables>,
  run: () => Promise<MigrationResultSet>,
): Promise<MigrationResultSet> {
  await sql`begin immediate`.execute(db);
  let outcome: MigrationResultSet;
  try {
    outcome = await run();
  } catch (error) {
    outcome = { error };
  }
  // The Migrator reports a failure in its result rather than throwing it.
  await sql.raw(outcome.error === undefined ? 'commit' : 'rollback').execute(db);
  return outcome;
}

/*
 * The schema the notes live in: the first one on the search_path that exists. A search_path that
 * names a schema not yet created (a fresh database given `-c search_path=notes`) gets it created
 * here, as the migrations would create their tables; where the user may not, the error says the
 * statement to run.
 */
async function currentSchema(db: Kysely<NotesTables>): Promise<string> {
  const current = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  );
  if (current.rows[0]?.schema) return current.rows[0].schema;
  const shown = await sql<{ search_path: string }>`show search_path`.execute(db);
  const searchPath = shown.rows[0]?.search_path ?? '';
  const wanted = firstSchemaOf(searchPath);
  if (!wanted) {
    throw new Error(
      `the notes database has no schema on its search_path (${searchPath || 'empty'}): name one in ` +
        'DATABASE_URL, e.g. ?options=-c%20search_path%3Dnotes, or set search_path for the user',
    );
  }
  try {
    await sql`create schema if not exists ${sql.id(wanted)}`.execute(db);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `the notes database's schema "${wanted}" (first on its search_path) does not exist and ` +
        `could not be created (${reason}): run  create schema "${wanted}";  as a user allowed to, ` +
        'or point search_path at a schema that exists',
      { cause: error },
    );
  }
  return wanted;
}

/** The first schema a search_path names, without quotes; `$user` is skipped. */
export function firstSchemaOf(searchPath: string): string | undefined {
  for (const part of searchPath.split(',')) {
    const name = part
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .replace(/""/g, '"');
    if (name && name !== '$user') return name;
  }
  return undefined;
}
