/**
 * A character `JSON.stringify` would escape in a string, or a surrogate (which it escapes when
 * lone, and which RFC 8785 refuses when lone).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Whether `text` needs more than quotes to be a JSON string. Most strings the audit writes (ids,
 * names, short arguments) need none, and quoting them directly skips `JSON.stringify`'s
 * character-by-character escape on Node 20 (docs/audit.md, "Performance").
 */
export function needsJsonEscape(text: string): boolean {
  return NEEDS_ESCAPE.test(text);
}

/** `text` as a JSON string: quoted as it is when nothing in it needs escaping. */
export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : '"' + text + '"';
}
