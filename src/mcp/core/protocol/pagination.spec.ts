import { McpInvalidParamsError } from '../errors/protocol.errors.js';
import { nextCursorOf, paginate } from './pagination.js';

describe('paginate', () => {
  const items = Array.from({ length: 25 }, (_, i) => i);

  it('walks every item once across pages and ends without a cursor', () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = paginate(items, cursor, 10);
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(seen).toEqual(items);
    expect(pages).toBe(3);
  });

  it('treats an empty-string cursor as the first page', () => {
    expect(paginate(items, '', 10).items[0]).toBe(0);
  });

  it.each([
    ['garbage'],
    [42],
    [Buffer.from('o:999').toString('base64url')],
    [Buffer.from('o:-1').toString('base64url')],
  ])('rejects the invalid cursor %p with -32602', (cursor) => {
    expect(() => paginate(items, cursor, 10)).toThrow(McpInvalidParamsError);
  });

  it('spreads a next cursor only when there is one', () => {
    expect(nextCursorOf({ items: [] })).toEqual({});
    expect(nextCursorOf({ items: [], nextCursor: 'c' })).toEqual({ nextCursor: 'c' });
  });
});
