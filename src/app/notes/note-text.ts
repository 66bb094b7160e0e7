/**
 * A note's text that no database can keep as given: PostgreSQL's text holds
 * no NUL character. Refused on SQLite too, so the same note is storable on
 * both (and a store can move from one to the other).
 */
export class NoteTextError extends Error {
  constructor(field: string) {
    super(`The note's ${field} cannot contain NUL characters`);
    this.name = 'NoteTextError';
  }
}

/** Whether the text holds a NUL character, which no store keeps. */
export function hasNul(text: string): boolean {
  return text.includes('\0');
}

/** Throws `NoteTextError` naming the first field that holds a NUL character. */
export function refuseNul(fields: Record<string, string>): void {
  for (const [field, text] of Object.entries(fields)) {
    if (hasNul(text)) throw new NoteTextError(field);
  }
}
