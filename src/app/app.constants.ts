/** DI token: where the notes are kept (`NotesDatabaseOptions`). */
export const NOTES_DATABASE = Symbol('NOTES_DATABASE');
