import { createHash } from 'node:crypto';

/** The longest key shown whole; a longer one is cut, and its digest tells it apart. */
export const MAX_KEY_CHARS = 100;

/**
 * How `key` appears in a preview: whole, or cut with a digest of the whole
 * key, so two long keys that start alike still look like two keys.
 */
export function keyShown(key: string): string {
  if (key.length <= MAX_KEY_CHARS) return key;
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return `${key.slice(0, MAX_KEY_CHARS)}…#${digest}`;
}

/**
 * `shown`, or `shown (2)`, `shown (3)`… : the first that `out` does not hold
 * yet. A digest can be matched on purpose, and a marker can share a key's
 * name; whatever the keys, a preview never shows two entries as one.
 */
export function uniqueKey(out: object, shown: string): string {
  let key = shown;
  for (let n = 2; Object.hasOwn(out, key); n++) key = `${shown} (${n})`;
  return key;
}
