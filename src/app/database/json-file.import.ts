import type { Kysely } from 'kysely';
import { access, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Note } from '../notes/note.interface.js';
import { noteRow, tagRows } from './note.rows.js';
import type { NotesTables } from './notes.schema.js';

/** The file the former JSON store kept under the data directory. */
export const JSON_NOTES_FILE = 'notes.json';
/** What it is renamed to once imported, so it is never imported twice. */
export const IMPORTED_SUFFIX = '.imported';

/* Rows per INSERT: well under SQLite's 32,766 bound parameters (7 per note). */
const BATCH = 500;

/**
 * Imports the former store's `notes.json` from `dataDir` into the database,
 * in one transaction, then renames it `notes.json.imported`. Returns how many
 * notes it held (undefined when there was no file). A note already in the
 * database (same id) is kept as it is, so an import that was interrupted
 * between its commit and its rename is harmless when it runs again. A file
 * that is not a list of notes stops the start with its reason: the user's
 * data is never skipped silently.
 */
export async function importJsonNotes(
  db: Kysely<NotesTables>,
  dataDir: string,
): Promise<number | undefined> {
  const file = join(dataDir, JSON_NOTES_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const notes = parseJsonNotes(text, file);
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < notes.length; start += BATCH) {
      const batch = notes.slice(start, start + BATCH);
      await trx
        .insertInto('notes')
        .values(batch.map(noteRow))
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
      const tags = batch.flatMap((note) => tagRows(note.id, note.tags));
      for (let from = 0; from < tags.length; from += BATCH) {
        await trx
          .insertInto('note_tags')
          .values(tags.slice(from, from + BATCH))
          .onConflict((conflict) => conflict.columns(['note_id', 'tag']).doNothing())
          .execute();
      }
    }
  });
  try {
    await rename(file, await freeName(`${file}${IMPORTED_SUFFIX}`));
  } catch (error) {
    // Another instance starting on the same directory imported and renamed it first.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return notes.length;
}

/* An earlier import's file is kept: the new one gets a numbered name beside it. */
async function freeName(wanted: string): Promise<string> {
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? wanted : `${wanted}.${n}`;
    try {
      await access(candidate);
    } catch {
      return candidate;
    }
  }
}

function parseJsonNotes(text: string, file: string): Note[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not JSON; fix or move it to start`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${file} is not a list of notes`);
  return parsed.map((entry, index) => {
    if (!isNote(entry)) throw new Error(`${file}: entry ${index} is not a note`);
    return entry;
  });
}

function isNote(value: unknown): value is Note {
  if (typeof value !== 'object' || value === null) return false;
  const note = value as Record<string, unknown>;
  return (
    ['id', 'title', 'body', 'createdAt'].every((key) => typeof note[key] === 'string') &&
    Array.isArray(note.tags) &&
    note.tags.every((tag) => typeof tag === 'string') &&
    (note.author === undefined || typeof note.author === 'string')
  );
}
