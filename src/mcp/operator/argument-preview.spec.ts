import { argumentPreview, REDACTED } from './argument-preview.js';

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

  it('cuts long strings', () => {
    const preview = JSON.parse(argumentPreview({ text: 'x'.repeat(500) }, { maxStringChars: 10 }));
    expect(preview.text).toBe('x'.repeat(10) + '…');
  });

  it('elides what is nested deeper than the bound', () => {
    const preview = JSON.parse(argumentPreview({ a: { b: { c: { d: 1 } } } }, { maxDepth: 2 }));
    expect(preview).toEqual({ a: { b: '{…}' } });
  });

  it('shows at most maxKeys keys and items', () => {
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const preview = JSON.parse(argumentPreview({ wide, list: Array(50).fill(0) }, { maxKeys: 3 }));
    expect(Object.keys(preview.wide)).toEqual(['k0', 'k1', 'k2', '…']);
    expect(preview.list).toEqual([0, 0, 0, '… 47 more']);
  });

  it('caps the whole preview', () => {
    const many = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`k${i}`, 'y'.repeat(200)]),
    );
    const preview = argumentPreview(many, { maxChars: 100 });
    expect(preview).toHaveLength(100);
    expect(preview.endsWith('…')).toBe(true);
  });

  it('never throws on what JSON cannot carry', () => {
    expect(argumentPreview({ f: () => 1, b: BigInt(1), u: undefined })).toBe(
      '{"f":"function","b":"bigint","u":"undefined"}',
    );
    expect(argumentPreview(undefined)).toBe('"undefined"');
  });
});
