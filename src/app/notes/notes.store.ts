import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { NOTES_DATABASE } from '../app.constants.js';
import { importJsonNotes } from '../database/json-file.import.js';
import { claimNoteKey, noteKey, noteOfKey, type NoteKey } from '../database/note-keys.js';
import { noteRow, tagRows, toNote } from '../database/note.rows.js';
import { announceNotesDatabase, openNotesDatabase } from '../database/notes-database.factory.js';
import type { NotesDatabaseOptions } from '../database/notes-database.options.js';
import type { NotesTables } from '../database/notes.schema.js';
import { rowLimit } from '../database/plan-stable.js';
import type { Note } from './note.interface.js';
import { escapeLike, NOTE_COLUMNS, NotesSearchStatement } from './notes-search.statement.js';
import { hasNul, refuseNul } from './note-text.js';

/* A fresh 8-character id that is taken already is drawn again, this many times at most. */
const ID_ATTEMPTS = 5;
/* Thrown inside a create's transaction to roll it back: its idempotency key is taken. */
const KEY_TAKEN = Symbol('idempotency key taken');

/**
 * The notes, in SQLite (one file under the data directory) or PostgreSQL
 * (shared by every instance). Every read goes to the database, so an instance
 * sees what another wrote and nothing in memory can drift from disk; every
 * write is one transaction (or one atomic statement), so a failed write fails
 * its own call only and two writers never lose each other's work. A write
 * costs the same whatever the number of notes.
 */
@Injectable()
export class NotesStore implements OnModuleInit, OnApplicationShutdown {
  private database?: Kysely<NotesTables>;
  /** The search statement, compiled once per database. */
  private searchStatement?: NotesSearchStatement;

  constructor(@Inject(NOTES_DATABASE) private readonly options: NotesDatabaseOptions) {}

  /** Opens the database, migrates it, imports a former `notes.json`, and says where notes live. */
  async onModuleInit(): Promise<void> {
    const { db } = await openNotesDatabase(this.options);
    let imported: number | undefined;
    try {
      imported = await importJsonNotes(db, this.options.dataDir);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    this.database = db;
    if (this.options.announce !== false) announceNotesDatabase(this.options, imported);
  }

  /*
   * At application shutdown, after every module's destroy hook and the audit journal's last
   * writes (`beforeApplicationShutdown`): its records go to this database.
   */
  async onApplicationShutdown(): Promise<void> {
    const db = this.database;
    this.database = undefined;
    this.searchStatement = undefined;
    await db?.destroy();
  }

  /** The open database, for the audit's SQL sink (the service keeps its records beside its notes). */
  kysely(): Kysely<NotesTables> {
    return this.db;
  }

  /** Resolves when the database answers a trivial query (readiness). */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** Every note, oldest first. */
  async list(): Promise<Note[]> {
    const rows = await this.db.selectFrom('notes').select(NOTE_COLUMNS).orderBy('seq').execute();
    const tags = new Map<string, string[]>();
    const tagRowsRead = await this.db
      .selectFrom('note_tags')
      .select(['note_id', 'tag'])
      .orderBy('seq')
      .execute();
    for (const { note_id, tag } of tagRowsRead) {
      const list = tags.get(note_id);
      if (list) list.push(tag);
      else tags.set(note_id, [tag]);
    }
    return rows.map((row) => toNote(row, tags.get(row.id) ?? []));
  }

  /**
   * How many notes there are and the `seq` of the newest, read in one statement: what an export
   * covers (the notes written after it are the next export's).
   */
  async extent(): Promise<{ count: number; lastSeq: number }> {
    const row = await this.db
      .selectFrom('notes')
      .select((eb) => [eb.fn.countAll().as('count'), eb.fn.max('seq').as('last')])
      .executeTakeFirstOrThrow();
    // PostgreSQL's count is a bigint, which its driver hands over as a string.
    return { count: Number(row.count), lastSeq: row.last === null ? 0 : Number(row.last) };
  }

  /**
   * One page of an export: at most `limit` notes whose `seq` is after `afterSeq` and not after
   * `lastSeq`, oldest first, and the `seq` the next page starts after. Keyset paging: each page
   * is one range read on the primary key, however far into the notes it is.
   */
  async pageAfter(
    afterSeq: number,
    lastSeq: number,
    limit: number,
  ): Promise<{ notes: Note[]; next: number }> {
    const rows = await this.db
      .selectFrom('notes')
      .select([...NOTE_COLUMNS, 'seq'])
      .where('seq', '>', afterSeq)
      .where('seq', '<=', lastSeq)
      .orderBy('seq')
      .limit(rowLimit(limit))
      .execute();
    const tags = await this.tagsOf(rows.map((row) => row.id));
    const next = rows.length === 0 ? afterSeq : Number(rows[rows.length - 1].seq);
    return { notes: rows.map((row) => toNote(row, tags.get(row.id) ?? [])), next };
  }

  /** The data directory: where exports are written, whichever database keeps the notes. */
  get dataDir(): string {
    return this.options.dataDir;
  }

  async get(id: string): Promise<Note | undefined> {
    if (hasNul(id)) return undefined; // stored text never has one
    const row = await this.db
      .selectFrom('notes')
      .select(NOTE_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toNote(row, (await this.tagsOf([id])).get(id) ?? []);
  }

  /** Ids beginning with `prefix` (for completion). */
  async idsStartingWith(prefix: string): Promise<string[]> {
    if (hasNul(prefix)) return [];
    // substr counts characters (code points) on both databases, and is case-sensitive, as
    // `startsWith` is; SQLite's LIKE would fold ASCII case.
    const length = [...prefix].length;
    const rows = await this.db
      .selectFrom('notes')
      .select('id')
      .where(sql<string>`substr(id, 1, ${length})`, '=', prefix)
      .orderBy('seq')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Notes whose title, body or tags contain `query` (case-insensitive). */
  async search(query: string, limit: number): Promise<Note[]> {
    if (hasNul(query)) return [];
    const pattern = `%${escapeLike(query.toLowerCase())}%`;
    this.searchStatement ??= new NotesSearchStatement(this.db);
    const { rows } = await this.db.executeQuery(this.searchStatement.with(pattern, limit));
    const tags = await this.tagsOf(rows.map((row) => row.id));
    return rows.map((row) => toNote(row, tags.get(row.id) ?? []));
  }

  async create(title: string, body: string, tags: string[], author?: string): Promise<Note> {
    const created = await this.insert(title, body, tags, author);
    return created!;
  }

  /**
   * `create`, once per idempotency `key` and author: the same key again (a
   * retry whose first call may have run) returns the note the key made, with
   * `replayed`, whichever instance made it. The key is kept as long as its
   * note; content other than the first call's is refused (`NoteKeyReusedError`).
   */
  async createOnce(
    key: string,
    title: string,
    body: string,
    tags: string[],
    author?: string,
  ): Promise<{ note: Note; replayed: boolean }> {
    refuseNul({ idempotencyKey: key });
    const keyed = noteKey(key, author, { title, body, tags });
    const earlier = await this.noteOf(keyed);
    if (earlier) return { note: earlier, replayed: true };
    const note = await this.insert(title, body, tags, author, keyed);
    if (note) return { note, replayed: false };
    // A concurrent call with the same key committed first: its note is the answer.
    const first = await this.noteOf(keyed);
    if (!first) throw new Error('the note of this idempotencyKey was deleted meanwhile');
    return { note: first, replayed: true };
  }

  /** Inserts a note with a fresh id (and claims `key`); undefined when the key was taken. */
  private async insert(
    title: string,
    body: string,
    tags: string[],
    author?: string,
    key?: NoteKey,
  ): Promise<Note | undefined> {
    refuseNul({ title, body, tag: tags.join(''), author: author ?? '' });
    for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      const note: Note = {
        id: randomUUID().slice(0, 8),
        title,
        body,
        tags: [...new Set(tags)],
        createdAt: new Date().toISOString(),
      };
      if (author !== undefined) note.author = author;
      const created = await this.db
        .transaction()
        .execute(async (trx) => {
          const inserted = await trx
            .insertInto('notes')
            .values(noteRow(note))
            .onConflict((conflict) => conflict.column('id').doNothing())
            .returning('id')
            .executeTakeFirst();
          if (!inserted) return 'id taken';
          if (key && !(await claimNoteKey(trx, key, note.id))) throw KEY_TAKEN; // rolls back
          if (note.tags.length > 0) {
            await trx.insertInto('note_tags').values(tagRows(note.id, note.tags)).execute();
          }
          return 'created';
        })
        .catch((error: unknown) => {
          if (error === KEY_TAKEN) return 'key taken';
          throw error;
        });
      if (created === 'created') return note;
      if (created === 'key taken') return undefined;
    }
    throw new Error('no free note id was found');
  }

  /** The note an idempotency key made, if it still exists. */
  private async noteOf(key: NoteKey): Promise<Note | undefined> {
    const id = await noteOfKey(this.db, key);
    return id === undefined ? undefined : this.get(id);
  }

  /** Adds `tag` to note `id` (once); returns the note, or undefined when there is none. */
  async addTag(id: string, tag: string): Promise<Note | undefined> {
    refuseNul({ tag });
    if (hasNul(id)) return undefined;
    // One statement: concurrent writers each add theirs (the unique pair keeps a tag once), and a
    // note deleted meanwhile gets no orphan tag.
    await this.db
      .insertInto('note_tags')
      .columns(['note_id', 'tag', 'tag_lc'])
      .expression((eb) =>
        eb
          .selectFrom('notes')
          .select([
            'id',
            sql<string>`cast(${tag} as text)`.as('tag'),
            sql<string>`cast(${tag.toLowerCase()} as text)`.as('tag_lc'),
          ])
          .where('id', '=', id),
      )
      .onConflict((conflict) => conflict.columns(['note_id', 'tag']).doNothing())
      .execute();
    return this.get(id);
  }

  async delete(id: string): Promise<boolean> {
    if (hasNul(id)) return false;
    // Its tags go with it (ON DELETE CASCADE).
    const result = await this.db.deleteFrom('notes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  private get db(): Kysely<NotesTables> {
    if (!this.database) throw new Error('the notes store is not open');
    return this.database;
  }

  private async tagsOf(ids: string[]): Promise<Map<string, string[]>> {
    const tags = new Map<string, string[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return tags;
    const rows = await this.db
      .selectFrom('note_tags')
      .select(['note_id', 'tag'])
      .where('note_id', 'in', ids)
      .orderBy('seq')
      .execute();
    for (const { note_id, tag } of rows) tags.get(note_id)?.push(tag);
    return tags;
  }
}
