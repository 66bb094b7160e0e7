import { LineDecoder } from './line.decoder.js';

describe('LineDecoder', () => {
  const text = (s: string) => Buffer.from(s, 'utf8');

  it('splits lines and keeps a partial line until its newline arrives', () => {
    const decoder = new LineDecoder(1024);
    expect(decoder.push(text('{"a":1}\n{"b"'))).toEqual([{ kind: 'line', text: '{"a":1}' }]);
    expect(decoder.push(text(':2}\n'))).toEqual([{ kind: 'line', text: '{"b":2}' }]);
  });

  it('strips a trailing CR and skips blank lines', () => {
    const decoder = new LineDecoder(1024);
    expect(decoder.push(text('x\r\n\n  \ny\n'))).toEqual([
      { kind: 'line', text: 'x' },
      { kind: 'line', text: 'y' },
    ]);
  });

  it('decodes a multi-byte character split across chunks', () => {
    const decoder = new LineDecoder(1024);
    const bytes = text('é\n');
    expect(decoder.push(bytes.subarray(0, 1))).toEqual([]);
    expect(decoder.push(bytes.subarray(1))).toEqual([{ kind: 'line', text: 'é' }]);
  });

  it('reports an oversized line once, at its newline, and recovers', () => {
    const decoder = new LineDecoder(8);
    expect(decoder.push(text('0123456'))).toEqual([]);
    expect(decoder.push(text('789abcdef'))).toEqual([]);
    expect(decoder.push(text('gh\nok\n'))).toEqual([
      { kind: 'oversized' },
      { kind: 'line', text: 'ok' },
    ]);
  });

  it('accepts a line of exactly the bound', () => {
    const decoder = new LineDecoder(4);
    expect(decoder.push(text('abcd\n'))).toEqual([{ kind: 'line', text: 'abcd' }]);
  });

  it('flushes a final line without newline at end of input', () => {
    const decoder = new LineDecoder(64);
    decoder.push(text('last'));
    expect(decoder.end()).toEqual([{ kind: 'line', text: 'last' }]);
    expect(decoder.end()).toEqual([]);
  });
});
