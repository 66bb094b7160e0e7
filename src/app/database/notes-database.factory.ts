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
import { sqliteFile, type NotesDatabaseOptions } from './notes-database.options.js';
import type { NotesDialect, NotesTables } from './notes.schema.js';
import { openSqlite } from './sqlite.connection.js';

/** Connections one instance holds to PostgreSQL at most. */
const POSTGRES_POOL_SIZE = 10;
/** How long a query may wait for a connection, and may run, before it fails (ms). */
const POSTGRES_TIMEOUT_MS = 10_000;

/** An open, migrated notes database. */
export interface NotesDatabase {
  readonly db: Kysely<NotesTables>;
  readonly dialect: NotesDialect;
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
    process.stderr.write(`mcp-warden: notes database connection lost: ${error.message}\n`);
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
  const { error, results } =
    dialect === 'sqlite'
      ? await exclusively(db, () => migrator.migrateToLatest())
      : await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`notes database migration${failed ? ` ${failed}` : ''} failed: ${reason}`);
  }
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

async function currentSchema(db: Kysely<NotesTables>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  );
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('the notes database has no schema on its search_path');
  return schema;
}
