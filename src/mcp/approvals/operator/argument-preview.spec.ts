import { argumentPreview, REDACTED } from './argument-preview.js';

/** A preview's JSON, parsed, and the line after it that says what was left out. */
function parts(preview: string): { json: any; note?: string } {
  const [json, note, ...rest] = preview.split('\n');
  expect(rest).toEqual([]);
  return { json: JSON.parse(json), note };
}

describe('argumentPreview', () => {
  it('shows plain arguments as JSON', () => {
    expect(argumentPreview({ id: 'n1', force: true, count: 3 })).toBe(
      '{"id":"n1","force":true,"count":3}',
    );
  });

  it.each([
    'password',
    'Password',
    'clientSecret',
    'access_token',
    'apiKey',
    'api-key',
    'privateKey',
    'authorization',
    'Authorization',
    'credentials',
    'cookie',
    'sessionId',
    'auth',
  ])('redacts the value under %s, at any depth', (key) => {
    const preview = JSON.parse(argumentPreview({ outer: { [key]: 'hunter2' } }));
    expect(preview).toEqual({ outer: { [key]: REDACTED } });
  });

  it('keeps keys that only look alike (author, monkeys)', () => {
    expect(JSON.parse(argumentPreview({ author: 'alice', monkeys: 2 }))).toEqual({
      author: 'alice',
      monkeys: 2,
    });
  });

  it('cuts long strings, and says how many bytes it left out', () => {
    const { json, note } = parts(
      argumentPreview({ text: 'x'.repeat(500) }, { maxStringChars: 10 }),
    );
    expect(json.text).toBe('x'.repeat(10) + '…');
    expect(note).toBe('… left out: 490 bytes');
  });

  it('elides what is nested deeper than the bound, and counts what it held', () => {
    const { json, note } = parts(argumentPreview({ a: { b: { c: { d: 1 } } } }, { maxDepth: 2 }));
    expect(json).toEqual({ a: { b: '{…}' } });
    // {"c":{"d":1}}: two keys, 13 bytes.
    expect(note).toBe('… left out: 2 keys, 13 bytes');
  });

  it('shows at most maxKeys keys and items, and counts the rest', () => {
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const { json, note } = parts(
      argumentPreview({ wide, list: Array(50).fill(0) }, { maxKeys: 3 }),
    );
    expect(Object.keys(json.wide)).toEqual(['k0', 'k1', 'k2', '…']);
    expect(json.list).toEqual([0, 0, 0, '… 47 more']);
    // "k3":3 … "k9":9 are 6 bytes each, "k10":10 … "k49":49 are 8: 7×6 + 40×8; 47 zeros.
    expect(note).toBe(`… left out: 47 keys, 47 items, ${7 * 6 + 40 * 8 + 47} bytes`);
  });

  it('keeps the JSON within maxChars, and says what the cap left out', () => {
    const many = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`k${i}`, 'y'.repeat(200)]),
    );
    const preview = argumentPreview(many, { maxChars: 100 });
    const [first, second] = preview.split('\n');
    expect(first.length).toBeLessThanOrEqual(100);
    const json = JSON.parse(first);
    expect(Object.keys(json)[0]).toBe('k0');
    expect(json.k0).toMatch(/^y+…$/);
    expect(second).toMatch(/^… left out: 19 keys, \d+ bytes$/);
    const bytes = Number(/(\d+) bytes/.exec(second)![1]);
    expect(bytes).toBeGreaterThan(19 * 200);
  });

  it('adds no line when it shows everything', () => {
    expect(argumentPreview({ id: 'n1', tags: ['a', 'b'] })).toBe('{"id":"n1","tags":["a","b"]}');
  });

  it('never throws on what JSON cannot carry', () => {
    expect(argumentPreview({ f: () => 1, b: BigInt(1), u: undefined })).toBe(
      '{"f":"function","b":"bigint","u":"undefined"}',
    );
    expect(argumentPreview(undefined)).toBe('"undefined"');
  });

  describe('never shows two arguments as one', () => {
    it('two keys alike in their first 100 characters show as two, each with a digest', () => {
      const stem = 'a'.repeat(100);
      const args = { [stem + 'harmless']: 'note 1', [stem + 'payload']: 'DROP TABLE notes' };
      const { json, note } = parts(argumentPreview(args));
      const keys = Object.keys(json);
      expect(keys).toHaveLength(2);
      expect(keys[0]).not.toBe(keys[1]);
      for (const key of keys) expect(key).toMatch(new RegExp(`^${stem}…#[0-9a-f]{8}$`));
      expect(Object.values(json)).toEqual(['note 1', 'DROP TABLE notes']);
      // What the cut left out of the keys: "harmless" and "payload".
      expect(note).toBe(`… left out: ${'harmless'.length + 'payload'.length} bytes`);
    });

    it('a key that matches a shown one (the marker, a cut key) still shows apart', () => {
      const long = 'b'.repeat(120);
      const shown = Object.keys(parts(argumentPreview({ [long]: 1 })).json)[0];
      const both = Object.keys(parts(argumentPreview({ [long]: 1, [shown]: 'DROP' })).json);
      expect(both).toHaveLength(2);
      expect(new Set(both).size).toBe(2);
      const marked = parts(
        argumentPreview({ '…': 'DROP TABLE notes', a: 1, b: 2 }, { maxKeys: 2 }),
      );
      expect(marked.json).toEqual({ '…': 'DROP TABLE notes', a: 1, '… (2)': 'more keys' });
      expect(marked.note).toBe('… left out: 1 key, 5 bytes');
    });

    it('shows a key named __proto__ like any other', () => {
      const args = JSON.parse('{"id":"n1","__proto__":"DROP TABLE notes"}');
      const preview = argumentPreview(args);
      expect(preview).toBe('{"id":"n1","__proto__":"DROP TABLE notes"}');
    });
  });

  it('never measures a secret it left out', () => {
    const short = parts(argumentPreview({ a: { b: { password: 'x' } } }, { maxDepth: 1 }));
    const long = parts(
      argumentPreview({ a: { b: { password: 'x'.repeat(900) } } }, { maxDepth: 1 }),
    );
    expect(long.note).toBe(short.note);
  });
});
