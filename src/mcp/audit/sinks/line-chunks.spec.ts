import type { McpAuditEntry } from '../audit-sink.interface.js';
import { CHUNK_CHARS, lineChunks } from './line-chunks.js';

/* A record whose line is `length` characters long (at least its fields'). */
const entry = (seq: number, length: number): McpAuditEntry => {
  const bare = `{"seq":${seq},"pad":""}`;
  return {
    seq,
    instance: 'i',
    line: `{"seq":${seq},"pad":"${'x'.repeat(Math.max(0, length - bare.length))}"}`,
    record: { id: String(seq), kind: 'checkpoint', time: '', checkpoint: '' },
  };
};

describe('lineChunks', () => {
  it('keeps every line, in order, each followed by a newline', () => {
    const entries = Array.from({ length: 1_500 }, (_, index) =>
      entry(index + 1, 300 + (index % 400)),
    );
    const chunks = lineChunks(entries);
    expect(chunks.join('')).toBe(entries.map((kept) => kept.line + '\n').join(''));
    // Every chunk ends at a line's end: a reader may split each one on its own.
    for (const chunk of chunks) expect(chunk.endsWith('\n')).toBe(true);
  });

  it('bounds each chunk, so no batch becomes one large string', () => {
    const entries = Array.from({ length: 1_500 }, (_, index) => entry(index + 1, 460));
    const chunks = lineChunks(entries);
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(CHUNK_CHARS);
  });

  it('fills a chunk up to the bound exactly', () => {
    // Two lines that with their newlines make CHUNK_CHARS, then one more.
    const half = CHUNK_CHARS / 2 - 1;
    const chunks = lineChunks([entry(1, half), entry(2, half), entry(3, 10)]);
    expect(chunks.map((chunk) => chunk.length)).toEqual([
      CHUNK_CHARS,
      entry(3, 10).line.length + 1,
    ]);
  });

  it('gives a line longer than the bound a chunk of its own', () => {
    const entries = [entry(1, 100), entry(2, CHUNK_CHARS * 2), entry(3, 100)];
    expect(lineChunks(entries).map((chunk) => chunk.split('\n').length - 1)).toEqual([1, 1, 1]);
  });

  it('makes no chunk of an empty batch', () => {
    expect(lineChunks([])).toEqual([]);
  });
});
