import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { NotesDialect } from './notes.schema.js';

/**
 * The store's migrations, in code (nothing to find on disk at run time), in
 * the order Kysely's Migrator applies them (by name). A migration never changes
 * once released; a new one is added after it.
 */
export class NotesMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: NotesDialect) {}

  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve({
      '0001-notes-and-tags': notesAndTags(this.dialect),
      '0002-note-keys': noteKeys,
    });
  }
}

function notesAndTags(dialect: NotesDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notes')
        .addColumn('seq', 'integer', (column) =>
          dialect === 'sqlite'
            ? column.primaryKey().autoIncrement()
            : column.primaryKey().generatedAlwaysAsIdentity(),
        )
        .addColumn('id', 'text', (column) => column.notNull().unique())
        .addColumn('title', 'text', (column) => column.notNull())
        .addColumn('body', 'text', (column) => column.notNull())
        .addColumn('title_lc', 'text', (column) => column.notNull())
        .addColumn('body_lc', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('author', 'text')
        .execute();
      await db.schema
        .createTable('note_tags')
        .addColumn('seq', 'integer', (column) =>
          dialect === 'sqlite'
            ? column.primaryKey().autoIncrement()
            : column.primaryKey().generatedAlwaysAsIdentity(),
        )
        .addColumn('note_id', 'text', (column) =>
          column.notNull().references('notes.id').onDelete('cascade'),
        )
        .addColumn('tag', 'text', (column) => column.notNull())
        .addColumn('tag_lc', 'text', (column) => column.notNull())
        // A tag is on a note once, however many writers add it at the same moment.
        .addUniqueConstraint('note_tags_note_tag', ['note_id', 'tag'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('note_tags').execute();
      await db.schema.dropTable('notes').execute();
    },
  };
}

/** Idempotency keys of note creation: a retry with the same key finds the note it made. */
const noteKeys: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('note_keys')
      .addColumn('scope', 'text', (column) => column.notNull())
      .addColumn('key', 'text', (column) => column.notNull())
      .addColumn('note_id', 'text', (column) =>
        column.notNull().references('notes.id').onDelete('cascade'),
      )
      .addColumn('fingerprint', 'text', (column) => column.notNull())
      // The database, not a read before the write, keeps a key to one note: two retries racing
      // on two instances make one note.
      .addPrimaryKeyConstraint('note_keys_scope_key', ['scope', 'key'])
      .execute();
    await db.schema.createIndex('note_keys_note').on('note_keys').column('note_id').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('note_keys').execute();
  },
};
