import { CompiledQuery, sql, type InferResult, type Kysely } from 'kysely';
import type { NotesTables } from '../database/notes.schema.js';
import { likePattern, rowLimit } from '../database/plan-stable.js';

/** The columns a note is read from. */
export const NOTE_COLUMNS = ['id', 'title', 'body', 'created_at', 'author'] as const;

/** Notes whose title, body or tags match a LIKE `pattern`, oldest first, at most `limit`. */
function build(db: Kysely<NotesTables>, pattern: string, limit: number) {
  return db
    .selectFrom('notes as n')
    .select(NOTE_COLUMNS.map((column) => `n.${column}` as const))
    .where((eb) =>
      eb.or([
        eb(sql`n.title_lc`, 'like', sql`${likePattern(pattern)} escape '\\'`),
        eb(sql`n.body_lc`, 'like', sql`${likePattern(pattern)} escape '\\'`),
        eb.exists(
          eb
            .selectFrom('note_tags as t')
            .select('t.seq')
            .whereRef('t.note_id', '=', 'n.id')
            .where(sql`t.tag_lc`, 'like', sql`${likePattern(pattern)} escape '\\'`),
        ),
      ]),
    )
    .orderBy('n.seq')
    .limit(rowLimit(limit));
}

/** A row of a search: the note's columns. */
export type SearchRow = InferResult<ReturnType<typeof build>>[number];

/**
 * The search statement of one database. Kysely builds and compiles it on the first search
 * only: building the expression tree and compiling it to SQL was the largest part of a search's
 * CPU (docs/notes-service.md, "Performance"), and the statement's text never changes; its
 * parameters do. Should a Kysely release order them otherwise, nothing is reused.
 */
export class NotesSearchStatement {
  private sql?: string;

  constructor(private readonly db: Kysely<NotesTables>) {}

  /** The statement with these parameters, ready for `db.executeQuery`. */
  with(pattern: string, limit: number): CompiledQuery<SearchRow> {
    const parameters = [pattern, pattern, pattern, limit];
    if (this.sql !== undefined) return CompiledQuery.raw(this.sql, parameters);
    const compiled = build(this.db, pattern, limit).compile();
    if (
      compiled.parameters.length === parameters.length &&
      compiled.parameters.every((value, index) => value === parameters[index])
    ) {
      this.sql = compiled.sql;
    }
    return compiled;
  }
}

/* `%`, `_` and the escape character itself match literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
