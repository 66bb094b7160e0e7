import { jest } from '@jest/globals';
import {
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { McpAuditEntry } from '../audit-sink.interface.js';
import { JsonlFileSink } from './jsonl-file.sink.js';

const entry = (seq: number): McpAuditEntry => ({
  seq,
  instance: 'i',
  // Not only ASCII: the encoding is UTF-8, and sizes are counted in bytes.
  line: `{"seq":${seq},"note":"été ${'x'.repeat(seq % 7)}"}`,
  record: { id: String(seq), kind: 'checkpoint', time: '', checkpoint: '' },
});
const entries = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => entry(from + index));

function linesIn(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean));
}

describe('JsonlFileSink', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-warden-jsonl-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps batches of any size whole and in order, one line each', async () => {
    const sink = new JsonlFileSink({ dir });
    await sink.open('i');
    let next = 1;
    for (const size of [1, 64, 65, 200, 3]) {
      await sink.write(entries(next, size));
      next += size;
    }
    await sink.close();
    expect(linesIn(dir)).toEqual(entries(1, next - 1).map((kept) => kept.line));
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('past maxBytes, the batch continues in the next file, no line split', async () => {
    const sink = new JsonlFileSink({ dir, maxBytes: 1_000 });
    await sink.open('i');
    await sink.write(entries(1, 150));
    await sink.close();
    const files = readdirSync(dir).sort();
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      expect(Buffer.byteLength(readFileSync(join(dir, file)))).toBeLessThanOrEqual(1_000);
    }
    expect(linesIn(dir)).toEqual(entries(1, 150).map((kept) => kept.line));
  });

  it('a batch retried after it was written, in part (across a rotation) or whole, adds no line twice', async () => {
    const sink = new JsonlFileSink({ dir, maxBytes: 1_000 });
    await sink.open('i');
    await sink.write(entries(1, 50));
    await sink.write(entries(1, 50));
    await sink.write(entries(31, 30));
    await sink.close();
    expect(linesIn(dir)).toEqual(entries(1, 60).map((kept) => kept.line));
  });

  it('a write that fails partway is cut off before the next, so no line is torn or doubled', async () => {
    const sink = new JsonlFileSink({ dir });
    await sink.open('i');
    await sink.write(entries(1, 5));
    // The disk takes part of the next batch, then the write fails (as on a full disk).
    const handle = (sink as unknown as { handle: FileHandle }).handle;
    const writev = handle.writev.bind(handle);
    handle.writev = async (buffers: readonly NodeJS.ArrayBufferView[]) => {
      const first = buffers[0] as Buffer;
      await handle.write(first.subarray(0, Math.floor(first.length / 2)));
      handle.writev = writev;
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    };
    await expect(sink.write(entries(6, 5))).rejects.toThrow('no space left');
    await sink.write(entries(6, 5));
    await sink.close();
    expect(linesIn(dir)).toEqual(entries(1, 10).map((kept) => kept.line));
  });

  it('a next file that cannot be made is tried again under its number: no gap in the numbers', async () => {
    const sink = new JsonlFileSink({ dir, maxBytes: 1_000 });
    await sink.open('i');
    await sink.write(entries(1, 20));
    // A folder where the next file goes: opening it fails (EISDIR), as a full inode table would.
    const next = join(dir, 'audit-i-000002.jsonl');
    mkdirSync(next);
    await expect(sink.write(entries(21, 20))).rejects.toThrow();
    rmdirSync(next);
    await sink.write(entries(21, 20));
    await sink.close();
    const files = readdirSync(dir).sort();
    expect(files.slice(0, 2)).toEqual(['audit-i-000001.jsonl', 'audit-i-000002.jsonl']);
    expect(files).toEqual(files.map((_, i) => `audit-i-${String(i + 1).padStart(6, '0')}.jsonl`));
    expect(linesIn(dir)).toEqual(entries(1, 40).map((kept) => kept.line));
  });

  it('past maxAgeMs, the next batch opens the next file', async () => {
    const sink = new JsonlFileSink({ dir, maxAgeMs: 60_000 });
    const now = jest.spyOn(Date, 'now');
    try {
      now.mockReturnValue(1_000_000);
      await sink.open('i');
      await sink.write(entries(1, 3));
      now.mockReturnValue(1_000_000 + 60_000);
      await sink.write(entries(4, 3));
      now.mockReturnValue(1_000_000 + 60_001);
      await sink.write(entries(7, 3));
      await sink.close();
    } finally {
      now.mockRestore();
    }
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['audit-i-000001.jsonl', 'audit-i-000002.jsonl']);
    expect(readFileSync(join(dir, files[1]!), 'utf8').trim().split('\n')).toEqual(
      entries(7, 3).map((kept) => kept.line),
    );
    expect(linesIn(dir)).toEqual(entries(1, 9).map((kept) => kept.line));
  });

  it('writes through O_DSYNC: a write returns once its data is on disk', async () => {
    const sink = new JsonlFileSink({ dir, maxBytes: 1_000 });
    await sink.open('i');
    // Rotation opens the next file the same way.
    await sink.write(entries(1, 50));
    const fd = (sink as unknown as { handle: { fd: number } }).handle.fd;
    // Linux shows an open file's flags, in octal, in /proc/self/fdinfo.
    const flags = parseInt(
      /^flags:\s*(\d+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))![1]!,
      8,
    );
    await sink.close();
    expect(readdirSync(dir).length).toBeGreaterThan(1);
    expect(flags & constants.O_DSYNC).toBe(constants.O_DSYNC);
    expect(flags & constants.O_APPEND).toBe(constants.O_APPEND);
  });
});
