import type { Generated } from 'kysely';

/**
 * The tables of the notes store. `seq` orders rows as they were written; the
 * lower-cased copies (`title_lc`, `body_lc`, `tag_lc`) make search match
 * JavaScript's case folding on both databases (SQLite's `lower()` folds ASCII
 * only, PostgreSQL's follows its collation).
 */
export interface NotesTables {
  notes: {
    seq: Generated<number>;
    id: string;
    title: string;
    body: string;
    title_lc: string;
    body_lc: string;
    created_at: string;
    author: string | null;
  };
  note_tags: {
    seq: Generated<number>;
    note_id: string;
    tag: string;
    tag_lc: string;
  };
  /** The idempotency keys of `create_note`: one per author and key, gone with its note. */
  note_keys: {
    /** The author the key belongs to (`''` without one): a key never reaches another's note. */
    scope: string;
    key: string;
    note_id: string;
    /** What the key was first sent with (a digest of title, body and tags). */
    fingerprint: string;
  };
}

/** The dialects the store runs on. */
export type NotesDialect = 'sqlite' | 'postgres';
