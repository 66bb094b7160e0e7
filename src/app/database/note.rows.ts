import type { Insertable, Selectable } from 'kysely';
import type { Note } from '../notes/note.interface.js';
import type { NotesTables } from './notes.schema.js';

type NoteRow = Selectable<NotesTables['notes']>;

/** A note's row (its tags go to `note_tags`). */
export function noteRow(note: Note): Insertable<NotesTables['notes']> {
  return {
    id: note.id,
    title: note.title,
    body: note.body,
    title_lc: note.title.toLowerCase(),
    body_lc: note.body.toLowerCase(),
    created_at: note.createdAt,
    author: note.author ?? null,
  };
}

/** The tag rows of a note: each tag once, in the order given. */
export function tagRows(
  noteId: string,
  tags: readonly string[],
): Insertable<NotesTables['note_tags']>[] {
  return [...new Set(tags)].map((tag) => ({ note_id: noteId, tag, tag_lc: tag.toLowerCase() }));
}

/** The note a row and its tags make (no `author` key when there is none, as before). */
export function toNote(
  row: Pick<NoteRow, 'id' | 'title' | 'body' | 'created_at' | 'author'>,
  tags: string[],
): Note {
  const note: Note = {
    id: row.id,
    title: row.title,
    body: row.body,
    tags,
    createdAt: row.created_at,
  };
  if (row.author !== null) note.author = row.author;
  return note;
}
