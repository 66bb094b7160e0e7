import { readFileSync } from 'node:fs';
import { McpAuditSinks, type McpAuditOptions } from '../../index.js';
import { sqliteFile, type NotesDatabaseOptions } from '../database/notes-database.options.js';
import { sqliteDriverName } from '../database/sqlite.connection.js';
import type { NotesStore } from '../notes/notes.store.js';

/**
 * The service's audit records, kept in its own database (the notes' SQLite file or
 * PostgreSQL), in a hash chain `mcp-warden audit verify` checks (docs/audit.md):
 * - `AUDIT_SIGNING_KEY_FILE` (or `AUDIT_SIGNING_KEY`, PEM text): an Ed25519 private key that
 *   signs a checkpoint every `AUDIT_CHECKPOINT_EVERY` records (default 1,000) and at shutdown;
 * - `AUDIT_FAIL_CLOSED=true`: a call whose decision record cannot be kept denies;
 * - `AUDIT_ARGUMENTS=full`: the arguments themselves, not only their digest;
 * - `AUDIT_RECORDS=off`: no records (the stream on stderr stays).
 */
export function serviceAuditFromEnv(
  notes: NotesStore,
  database: NotesDatabaseOptions,
  env: NodeJS.ProcessEnv = process.env,
): McpAuditOptions | undefined {
  const read = (name: string) => env[name]?.trim() || undefined;
  if (read('AUDIT_RECORDS') === 'off') return undefined;
  const keyFile = read('AUDIT_SIGNING_KEY_FILE');
  const privateKey = keyFile ? readFileSync(keyFile, 'utf8') : read('AUDIT_SIGNING_KEY');
  const every = Number(read('AUDIT_CHECKPOINT_EVERY'));
  const mode = read('AUDIT_ARGUMENTS');
  if (mode !== undefined && mode !== 'full' && mode !== 'digest') {
    throw new Error(`AUDIT_ARGUMENTS is full or digest, not ${mode}`);
  }
  return {
    sinks: [
      // SQLite through a thread of its own, so its commits never hold the event loop; with the
      // store's own driver, since two copies of SQLite in one process miss each other's locks.
      // A write every 10 ms at most, not the sink's default 50: under load a record waiting 50 ms
      // outlives the young generation, and garbage collection cost the event loop more than the
      // extra commits cost the writer thread (docs/notes-service.md, "Performance").
      database.kind === 'sqlite'
        ? McpAuditSinks.sqlite({
            file: sqliteFile(database),
            driver: sqliteDriverName(),
            minWriteIntervalMs: 10,
          })
        : McpAuditSinks.sql({ db: () => notes.kysely() }),
    ],
    failClosed: read('AUDIT_FAIL_CLOSED') === 'true',
    arguments: mode,
    signing: privateKey
      ? { privateKey, everyRecords: Number.isInteger(every) && every > 0 ? every : undefined }
      : undefined,
  };
}
