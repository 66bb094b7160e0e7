import { argumentAt, mcpParamHeadersOf } from './mcp-param.headers.js';

describe('mcpParamHeadersOf', () => {
  it('finds x-mcp-header declarations on top-level properties with their type', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        count: { type: 'integer', 'x-mcp-header': 'Count' },
        note: { type: 'string' },
      },
    };
    expect(mcpParamHeadersOf(schema)).toEqual([
      { name: 'Region', path: ['region'], type: 'string' },
      { name: 'Count', path: ['count'], type: 'integer' },
    ]);
  });

  it('follows chains of properties to nested declarations', () => {
    const schema = {
      type: 'object',
      properties: {
        target: {
          type: 'object',
          'x-mcp-header': 'Target',
          properties: {
            account: {
              type: 'object',
              properties: { id: { type: 'string', 'x-mcp-header': 'Account-Id' } },
            },
          },
        },
      },
    };
    expect(mcpParamHeadersOf(schema)).toEqual([
      { name: 'Target', path: ['target'], type: 'object' },
      { name: 'Account-Id', path: ['target', 'account', 'id'], type: 'string' },
    ]);
  });

  it('ignores declarations under items, oneOf, anyOf, allOf, $defs and additionalProperties', () => {
    const hidden = { type: 'string', 'x-mcp-header': 'Hidden' };
    const schema = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { h: hidden } } },
        either: { oneOf: [{ type: 'object', properties: { h: hidden } }] },
        any: { anyOf: [hidden] },
        all: { allOf: [{ properties: { h: hidden } }] },
        map: { type: 'object', additionalProperties: hidden },
      },
      $defs: { h: hidden },
      items: hidden,
    };
    expect(mcpParamHeadersOf(schema)).toEqual([]);
  });

  it('ignores an empty or non-string header name', () => {
    const schema = {
      properties: {
        a: { type: 'string', 'x-mcp-header': '' },
        b: { type: 'string', 'x-mcp-header': 7 },
        c: { type: 'string', 'x-mcp-header': true },
      },
    };
    expect(mcpParamHeadersOf(schema)).toEqual([]);
  });

  it('reads a schema without properties as declaring nothing', () => {
    expect(mcpParamHeadersOf({ type: 'object' })).toEqual([]);
    expect(mcpParamHeadersOf({ properties: [] })).toEqual([]);
  });

  it('reads each schema object once and caches the answer', () => {
    const schema = { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } };
    const first = mcpParamHeadersOf(schema);
    (schema.properties as Record<string, unknown>).b = { type: 'string', 'x-mcp-header': 'B' };
    expect(mcpParamHeadersOf(schema)).toBe(first);
    expect(first.map((h) => h.name)).toEqual(['A']);
  });

  it('reads another schema object with the same content afresh', () => {
    const make = () => ({ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } });
    const one = mcpParamHeadersOf(make());
    const two = mcpParamHeadersOf(make());
    expect(two).not.toBe(one);
    expect(two).toEqual(one);
  });

  it('finds a declaration five properties deep, and stops descending past a bounded depth', () => {
    const nested = (levels: number) => {
      let node: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
      for (let i = 0; i < levels; i++) node = { type: 'object', properties: { n: node } };
      return node;
    };
    expect(mcpParamHeadersOf(nested(5))).toEqual([
      { name: 'Deep', path: ['n', 'n', 'n', 'n', 'n'], type: 'string' },
    ]);
    expect(mcpParamHeadersOf(nested(20))).toEqual([]);
  });
});

describe('argumentAt', () => {
  const args = { region: 'eu', target: { account: { id: 'a-1' } }, list: ['x'], none: null };

  it.each([
    [['region'], 'eu'],
    [['target', 'account', 'id'], 'a-1'],
    [['target', 'account'], { id: 'a-1' }],
    [['none'], null],
    [[], args],
  ])('finds the argument at %j', (path, expected) => {
    expect(argumentAt(args, path)).toEqual(expected);
  });

  it.each([
    [['missing']],
    [['region', 'length']],
    [['none', 'id']],
    [['list', '0']],
    [['target', 'missing', 'id']],
  ])('answers undefined where there is no argument at %j', (path) => {
    expect(argumentAt(args, path)).toBeUndefined();
  });

  it('answers undefined for arguments that are not an object', () => {
    expect(argumentAt(undefined, ['a'])).toBeUndefined();
    expect(argumentAt('a', ['a'])).toBeUndefined();
  });
});
