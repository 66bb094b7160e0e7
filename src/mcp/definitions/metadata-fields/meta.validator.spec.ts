import { metaProblem } from './meta.validator.js';

describe('metaProblem', () => {
  it.each([
    [{}],
    [{ plain: 1, 'with-dash_and.dot': true, '': 'empty name' }],
    [{ 'com.example/owner': 'a', 'com.example.mcp/x': 1, 'ui/resourceUri': 'ui://x' }],
    [{ nested: { any: ['json', 1, null] } }],
  ])('accepts %j', (meta) => {
    expect(metaProblem(meta)).toBeUndefined();
  });

  it.each([
    ['an array', [], '_meta must be an object'],
    ['null', null, '_meta must be an object'],
    ['a key with a space', { 'bad key': 1 }, 'not a valid key'],
    ['a name ending in a dash', { 'owner-': 1 }, 'not a valid key'],
    ['a label starting with a digit', { '1x.example/a': 1 }, 'not a valid key'],
    ['io.modelcontextprotocol/', { 'io.modelcontextprotocol/serverInfo': 1 }, 'reserved'],
    ['dev.mcp/', { 'dev.mcp/x': 1 }, 'reserved'],
    ['org.modelcontextprotocol.api/', { 'org.modelcontextprotocol.api/x': 1 }, 'reserved'],
    ['a reserved label in capitals', { 'io.MCP/x': 1 }, 'reserved'],
    [
      'a cycle',
      (() => {
        const a: Record<string, unknown> = {};
        a.self = a;
        return a;
      })(),
      'JSON',
    ],
  ])('refuses %s', (_label, meta, problem) => {
    expect(metaProblem(meta)).toContain(problem);
  });
});
