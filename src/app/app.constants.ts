/** DI token: where the notes are kept (`NotesDatabaseOptions`). */
export const NOTES_DATABASE = Symbol('NOTES_DATABASE');

/** DI token: the service's metrics pipeline (`/metrics`), HTTP only. */
export const SERVICE_METRICS = Symbol('SERVICE_METRICS');
