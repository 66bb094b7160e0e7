import type { MessageShapeBounds } from './message-shape.scanner.js';

/**
 * Whether a body is too small to cross any of its bounds, told without scanning it: most
 * requests are a few hundred characters, and the shape scan cost them more than `JSON.parse`
 * did (docs/performance.md, "Reading requests"). Each value, key or item is preceded by a comma
 * or opens its container, so a body holds fewer values than it has characters: one shorter than
 * every count bound is within them. A body cannot nest deeper than it has brackets, and brackets
 * inside strings are counted too, which only errs toward scanning.
 */
export function cannotCrossBounds(text: string, bounds: MessageShapeBounds): boolean {
  const { length } = text;
  if (
    length >= bounds.maxBatchItems ||
    length >= bounds.maxArgumentKeys ||
    length >= bounds.maxArgumentArrayLength
  ) {
    return false;
  }
  const most = bounds.maxArgumentDepth;
  const objects = occurrences(text, '{', most);
  return objects <= most && objects + occurrences(text, '[', most - objects) <= most;
}

/* How often `char` occurs in `text`, counted with indexOf up to one past `most`. */
function occurrences(text: string, char: string, most: number): number {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0 && count <= most; at = text.indexOf(char, at + 1)) {
    count += 1;
  }
  return count;
}
