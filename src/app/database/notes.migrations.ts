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
    return Promise.resolve({ '0001-notes-and-tags': notesAndTags(this.dialect) });
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
