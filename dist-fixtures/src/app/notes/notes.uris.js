/** The URI of the notes index resource. */
export const NOTES_INDEX_URI = 'notes://index';
/** The URI template of one note. */
export const NOTE_URI_TEMPLATE = 'notes://{id}';
export function noteUri(id) {
    return `notes://${encodeURIComponent(id)}`;
}
//# sourceMappingURL=notes.uris.js.map