import { keyShown, MAX_KEY_CHARS, uniqueKey } from './preview-keys.js';

describe('preview keys', () => {
  it('shows a short key whole, and a long one cut with a digest of the whole key', () => {
    expect(keyShown('id')).toBe('id');
    const stem = 'k'.repeat(MAX_KEY_CHARS);
    expect(keyShown(stem)).toBe(stem);
    const [a, b] = [keyShown(stem + 'a'), keyShown(stem + 'b')];
    expect(a).toMatch(new RegExp(`^${stem}…#[0-9a-f]{8}$`));
    expect(a).not.toBe(b);
  });

  it('numbers a key the entries already hold (a digest matched on purpose)', () => {
    const out = Object.create(null);
    expect(uniqueKey(out, 'x')).toBe('x');
    out.x = 1;
    expect(uniqueKey(out, 'x')).toBe('x (2)');
    out['x (2)'] = 2;
    expect(uniqueKey(out, 'x')).toBe('x (3)');
    out.__proto__ = 3;
    expect(uniqueKey(out, '__proto__')).toBe('__proto__ (2)');
  });
});
