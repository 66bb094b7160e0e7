/** DI token: the directory the notes are persisted under. */
export const NOTES_DATA_DIR = Symbol('NOTES_DATA_DIR');

/** Where data lives unless `DATA_DIR` says otherwise. */
export const DEFAULT_DATA_DIR = 'data';

/** DI token: the service's metrics pipeline (`/metrics`), HTTP only. */
export const SERVICE_METRICS = Symbol('SERVICE_METRICS');
