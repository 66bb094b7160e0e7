/** DI token: the directory the notes are persisted under. */
export const NOTES_DATA_DIR = Symbol('NOTES_DATA_DIR');
/** Where data lives unless `DATA_DIR` says otherwise. */
export const DEFAULT_DATA_DIR = 'data';
//# sourceMappingURL=app.constants.js.map