import { join } from 'node:path';
import { defaultDataDir } from './data-dir.js';

/** The file name of the embedded SQLite store under the data directory. */
export const SQLITE_FILE = 'notes.sqlite';

/**
 * Where the notes live. `dataDir` is also where a `notes.json` of the former
 * JSON store is looked for (and imported once), whichever database is used.
 */
export type NotesDatabaseOptions =
  | { readonly kind: 'sqlite'; readonly dataDir: string; readonly announce?: boolean }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      readonly dataDir: string;
      readonly announce?: boolean;
    };

/** SQLite under `DATA_DIR` (default: the per-user data directory), PostgreSQL with `DATABASE_URL`. */
export function notesDatabaseFromEnv(env: NodeJS.ProcessEnv = process.env): NotesDatabaseOptions {
  const dataDir = env.DATA_DIR || defaultDataDir(env);
  const url = env.DATABASE_URL;
  return url ? { kind: 'postgres', url, dataDir } : { kind: 'sqlite', dataDir };
}

/** The SQLite file the options name. */
export function sqliteFile(options: { dataDir: string }): string {
  return join(options.dataDir, SQLITE_FILE);
}

/** Where the notes are, for the start-up line: never the password of a URL. */
export function describeNotesDatabase(options: NotesDatabaseOptions): string {
  if (options.kind === 'sqlite') return `sqlite ${sqliteFile(options)}`;
  try {
    const url = new URL(options.url);
    const host = url.host || 'localhost';
    return `postgres ${host}${url.pathname || '/'}`;
  } catch {
    return 'postgres (unparsable DATABASE_URL)';
  }
}
