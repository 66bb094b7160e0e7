import { Module } from '@nestjs/common';
import { NOTES_DATABASE } from '../app.constants.js';
import { notesDatabaseFromEnv } from '../database/notes-database.options.js';
import { NotesStore } from './notes.store.js';

/**
 * The notes store as a module of its own, so the MCP module's options factory
 * can inject it (the tool policy reads a note's author) and the app's tools
 * share the very same instance: Nest keeps one instance per module class.
 */
@Module({
  providers: [
    { provide: NOTES_DATABASE, useFactory: () => notesDatabaseFromEnv(process.env) },
    NotesStore,
  ],
  // The database options too: the audit keeps its records beside the notes (service-audit.ts).
  exports: [NotesStore, NOTES_DATABASE],
})
export class NotesStoreModule {}
