/**
 * What a preview left out of a call's arguments: object keys, array items,
 * and their size as JSON, in UTF-8 bytes. Values under secret keys are never
 * measured (their size would say something about the secret).
 */
export interface ArgumentTally {
  keys: number;
  items: number;
  bytes: number;
}

/** An empty tally. */
export function emptyTally(): ArgumentTally {
  return { keys: 0, items: 0, bytes: 0 };
}

/** The UTF-8 size of `text` written as a JSON string, quotes included. */
export function jsonStringBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text));
}

/**
 * Adds all of `value` (every key and item it holds, at any depth, and its
 * JSON size) to `tally`. Iterative, so no nesting can overflow the stack;
 * the arguments were bounded in keys and depth before any preview is made.
 */
export function tallyValue(
  value: unknown,
  tally: ArgumentTally,
  isSecret: (key: string) => boolean,
): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null) {
      tally.bytes += leafBytes(next);
      continue;
    }
    let count = 0;
    if (Array.isArray(next)) {
      for (const item of next) stack.push(item);
      count = next.length;
      tally.items += count;
    } else {
      for (const key in next as Record<string, unknown>) {
        if (!Object.hasOwn(next, key)) continue;
        count++;
        tally.keys++;
        tally.bytes += jsonStringBytes(key) + 1;
        if (!isSecret(key)) stack.push((next as Record<string, unknown>)[key]);
      }
    }
    // The brackets, and a comma between two members.
    tally.bytes += 2 + Math.max(0, count - 1);
  }
}

/* A primitive's JSON size; what JSON cannot carry counts as its stand-in, a type name. */
function leafBytes(value: unknown): number {
  if (typeof value === 'string') return jsonStringBytes(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return Buffer.byteLength(JSON.stringify(value));
  }
  return jsonStringBytes(typeof value);
}
