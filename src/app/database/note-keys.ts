import type { Kysely, Transaction } from 'kysely';
import { createHash } from 'node:crypto';
import type { NotesTables } from './notes.schema.js';

/*
 * Idempotency keys of note creation. A client that cannot tell whether its
 * `create_note` ran (a lost answer, "outcome unknown") sends the call again
 * with the same key, and gets the note the first call made instead of a
 * second one. Keys are per author: the same key from another caller is
 * another key.
 */

/** A key sent again with other content: the caller reused it by mistake. */
export class NoteKeyReusedError extends Error {
  constructor() {
    super('This idempotencyKey was already used for a different note');
    this.name = 'NoteKeyReusedError';
  }
}

/** One key: whose it is, and what it was first sent with. */
export interface NoteKey {
  scope: string;
  key: string;
  fingerprint: string;
}

/** The key of a create by `author` (anonymous callers share the scope `''`). */
export function noteKey(
  key: string,
  author: string | undefined,
  content: { title: string; body: string; tags: readonly string[] },
): NoteKey {
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([content.title, content.body, [...new Set(content.tags)]]))
    .digest('base64url');
  return { scope: author ?? '', key, fingerprint };
}

/**
 * The note id a key already made, or undefined; throws `NoteKeyReusedError`
 * when the key was first sent with other content.
 */
export async function noteOfKey(
  db: Kysely<NotesTables>,
  key: NoteKey,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('note_keys')
    .select(['note_id', 'fingerprint'])
    .where('scope', '=', key.scope)
    .where('key', '=', key.key)
    .executeTakeFirst();
  if (row && row.fingerprint !== key.fingerprint) throw new NoteKeyReusedError();
  return row?.note_id;
}

/**
 * Records `key` for note `noteId` in the transaction that creates it; false
 * when the key is taken (a concurrent retry committed first: the caller rolls
 * back and reads that one's note).
 */
export async function claimNoteKey(
  trx: Transaction<NotesTables>,
  key: NoteKey,
  noteId: string,
): Promise<boolean> {
  const claimed = await trx
    .insertInto('note_keys')
    .values({ ...key, note_id: noteId })
    .onConflict((conflict) => conflict.columns(['scope', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}
