import { displayFieldsOf } from './display-fields.js';

const fail = (problem: string) => new Error(problem);

describe('displayFieldsOf', () => {
  it('returns only the fields set', () => {
    expect(displayFieldsOf({}, fail)).toEqual({});
    expect(displayFieldsOf({ title: 'T' }, fail)).toEqual({ title: 'T' });
  });

  it('returns copies, so later changes to the options do not reach the listing', () => {
    const icon = { src: 'https://example.com/i.png', sizes: ['48x48'] };
    const options = { icons: [icon], _meta: { 'com.example/tags': ['a'] } };
    const listed = displayFieldsOf(options, fail);
    icon.sizes.push('96x96');
    options._meta['com.example/tags'].push('b');
    options.icons.push({ src: 'https://example.com/j.png', sizes: [] });
    expect(listed).toEqual({
      icons: [{ src: 'https://example.com/i.png', sizes: ['48x48'] }],
      _meta: { 'com.example/tags': ['a'] },
    });
  });

  it('throws what `fail` builds, naming the problem', () => {
    expect(() => displayFieldsOf({ title: 3 as unknown as string }, fail)).toThrow(
      'title must be a string',
    );
    expect(() => displayFieldsOf({ icons: [{ src: 'x' }] }, fail)).toThrow(/icons\[0\]\.src/);
    expect(() => displayFieldsOf({ _meta: { 'a b': 1 } }, fail)).toThrow(/_meta key/);
  });
});
