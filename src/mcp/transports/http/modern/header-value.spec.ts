import { decodeHeaderValue, headerFormOf } from './header-value.js';

/* The SEP-2243 sentinel form of `text`. */
function sentinel(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

describe('decodeHeaderValue', () => {
  it.each([
    ['get_weather', 'get_weather'],
    ['notes://inbox/42', 'notes://inbox/42'],
    ['', ''],
  ])('returns the literal value %p as it is', (raw, expected) => {
    expect(decodeHeaderValue(raw)).toBe(expected);
  });

  it('trims surrounding whitespace from a literal value', () => {
    expect(decodeHeaderValue('  get_weather\t')).toBe('get_weather');
  });

  it('decodes the Base64 sentinel to the UTF-8 text', () => {
    expect(sentinel('café ☕')).toBe('=?base64?Y2Fmw6kg4piV?=');
    expect(decodeHeaderValue('=?base64?Y2Fmw6kg4piV?=')).toBe('café ☕');
  });

  it('decodes a sentinel that carries leading and trailing spaces, which a literal cannot', () => {
    expect(decodeHeaderValue(sentinel(' padded '))).toBe(' padded ');
  });

  it('decodes a trimmed sentinel and an empty payload', () => {
    expect(decodeHeaderValue(`  ${sentinel('x')}  `)).toBe('x');
    expect(decodeHeaderValue('=?base64??=')).toBe('');
  });

  it.each([
    ['bad padding (one = where two belong)', '=?base64?YWJjZA=?=', undefined],
    ['a canonical payload, for contrast', '=?base64?YWJjZA==?=', 'abcd'],
    ['missing padding', '=?base64?YQ?=', undefined],
    ['too much padding', '=?base64?Y===?=', undefined],
    ['the base64url alphabet', '=?base64?-_-_?=', undefined],
    ['characters outside Base64', '=?base64?YW*j?=', undefined],
    ['padding in the middle', '=?base64?YQ==YQ==?=', undefined],
    ['non-canonical trailing bits (QR== for QQ==)', '=?base64?QR==?=', undefined],
    ['invalid UTF-8 (0xFF)', '=?base64?/w==?=', undefined],
    ['a truncated UTF-8 sequence (0xC3)', '=?base64?ww==?=', undefined],
  ])('handles a sentinel with %s', (_label, raw, expected) => {
    expect(decodeHeaderValue(raw)).toBe(expected);
  });

  it.each([
    ['only the prefix', '=?base64?'],
    ['the prefix and a payload without the suffix', '=?base64?YWJj'],
    ['only the suffix', 'YWJj?='],
    ['another encoding', '=?utf-8?YWJj?='],
  ])('reads a value with %s as literal', (_label, raw) => {
    expect(decodeHeaderValue(raw)).toBe(raw);
  });
});

describe('headerFormOf', () => {
  it.each([
    ['a string as it is', 'us-west-1', 'us-west-1'],
    ['an empty string', '', ''],
    ['an integer as JSON', 42, '42'],
    ['a negative decimal as JSON', -1.5, '-1.5'],
    ['true', true, 'true'],
    ['false', false, 'false'],
  ])('writes %s', (_label, value, expected) => {
    expect(headerFormOf(value)).toBe(expected);
  });

  it.each([
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['null', null],
    ['undefined', undefined],
    ['an object', { a: 1 }],
    ['an array', ['a']],
  ])('has no header form for %s', (_label, value) => {
    expect(headerFormOf(value)).toBeUndefined();
  });
});
