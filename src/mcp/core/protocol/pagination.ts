import { McpInvalidParamsError } from '../errors/protocol.errors.js';

/** A page of a list result: the items and, when more remain, the cursor of the next page. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

const PREFIX = 'o:';

/**
 * Cursor pagination over a list that is already filtered for the caller.
 * Cursors are opaque to clients (base64url of an offset); a cursor that does
 * not decode to an offset inside the list is -32602, as the spec asks.
 */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  const start = cursor === undefined || cursor === '' ? 0 : decodeCursor(cursor, items.length);
  const end = Math.min(start + pageSize, items.length);
  const page: Page<T> = { items: items.slice(start, end) };
  if (end < items.length) page.nextCursor = encodeCursor(end);
  return page;
}

function encodeCursor(offset: number): string {
  return Buffer.from(PREFIX + offset, 'utf8').toString('base64url');
}

function decodeCursor(cursor: unknown, length: number): number {
  if (typeof cursor !== 'string') throw new McpInvalidParamsError('Invalid cursor');
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const offset = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : NaN;
  if (!Number.isInteger(offset) || offset < 0 || offset > length) {
    throw new McpInvalidParamsError('Invalid cursor');
  }
  return offset;
}

/** `{ nextCursor }` when the page has a next one, `{}` otherwise: spread into a list result. */
export function nextCursorOf(page: Page<unknown>): { nextCursor?: string } {
  return page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
}
