/* What an object's `toJSON` gave, written as it is: JSON.stringify calls `toJSON` once a value. */
class Replaced {
  constructor(readonly value: unknown) {}
}

/**
 * What keeps `value` from being sent as JSON of at most `limit` bytes: `too-large`, or
 * `not-json` for what `JSON.stringify` throws on when the answer is written (past the tool,
 * where nothing would answer the call): a BigInt (unless the app gave BigInt a `toJSON`), or a
 * `toJSON` that throws. An object's `toJSON` is called as `JSON.stringify` calls it, and what it
 * gives is measured. One iterative pass that stops at the first problem; strings count their
 * UTF-8 length plus quotes, so the bound errs on no side by more than escapes (which only make
 * the real JSON longer). A getter that throws throws here too.
 */
export function jsonSizeProblem(
  value: unknown,
  limit: number,
): 'too-large' | 'not-json' | undefined {
  const stack: unknown[] = [value];
  let bytes = 0;
  while (stack.length > 0) {
    let item = stack.pop();
    if (item instanceof Replaced) {
      item = item.value;
      // A BigInt a toJSON gave is not given to BigInt's own toJSON: JSON.stringify throws.
      if (typeof item === 'bigint') return 'not-json';
    } else if (typeof item === 'object' && item !== null) {
      const toJSON = (item as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        try {
          stack.push(new Replaced(toJSON.call(item, '')));
        } catch {
          return 'not-json';
        }
        continue;
      }
    }
    if (typeof item === 'string') bytes += Buffer.byteLength(item) + 2;
    else if (typeof item === 'bigint') {
      // Written as JSON only where the app gave BigInt a toJSON (its own choice of text).
      if (typeof (BigInt.prototype as { toJSON?: unknown }).toJSON !== 'function')
        return 'not-json';
      bytes += 24;
    } else if (typeof item === 'number' || typeof item === 'boolean') bytes += 5;
    else if (item === null || item === undefined) bytes += 4;
    else if (Array.isArray(item)) {
      bytes += 2 + item.length;
      for (const element of item) stack.push(element);
    } else if (typeof item === 'object') {
      for (const key in item) {
        bytes += Buffer.byteLength(key) + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
      bytes += 2;
    }
    if (bytes > limit) return 'too-large';
  }
  return undefined;
}
