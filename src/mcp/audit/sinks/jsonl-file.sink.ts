import { constants } from 'node:fs';
import { mkdir, open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { McpAuditEntry, McpAuditSink } from '../audit-sink.interface.js';
import { lineChunks } from './line-chunks.js';

/** `McpAuditSinks.jsonl()` options. @publicApi */
export interface McpJsonlSinkOptions {
  /** The folder; each instance writes its own files, `audit-<instance>-<n>.jsonl`. */
  dir: string;
  /** A file past this size is closed and the next one opened. Default 64 MiB. */
  maxBytes?: number;
  /** A file older than this is closed and the next one opened. Default: by size only. */
  maxAgeMs?: number;
  /** This instance's files kept; older ones are removed. Default 0: keep all. */
  maxFiles?: number;
  /**
   * Without `failClosed`, the shortest time between two writes, each a flush to disk: under
   * load, records gather for at most this long. Default 5 ms, at most 200 flushes a second
   * (docs/audit.md, "Performance"). With `failClosed` a write starts as soon as the last ends.
   */
  minWriteIntervalMs?: number;
}

const SEGMENT_DIGITS = 6;

/*
 * Opened with O_DSYNC where the platform has it: each write returns once its data is on disk, as
 * a write then an fdatasync did, in one system call and one trip through the thread pool instead
 * of two; a call that waits for its record (failClosed) waits for one hop less.
 */
const DSYNC: number | undefined = constants.O_DSYNC;
const APPEND =
  DSYNC === undefined ? 'a' : constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | DSYNC;

/**
 * Append-only JSON Lines files with group commit: a batch is one synced write, so
 * many records cost one flush to disk. A file is never rewritten; rotation opens the next
 * numbered file, and `mcp-warden audit verify` reads them in number order.
 */
export class JsonlFileSink implements McpAuditSink {
  readonly name = 'jsonl';
  readonly minWriteIntervalMs: number;
  private handle?: FileHandle;
  private instance = '';
  private segment = 0;
  private bytes = 0;
  private openedAt = 0;
  /** The last record on disk: a retried batch skips what an earlier attempt wrote. */
  private writtenSeq = 0;
  /** A write failed: what it may have left past `bytes` is cut before the next. */
  private torn = false;

  constructor(private readonly options: McpJsonlSinkOptions) {
    this.minWriteIntervalMs = options.minWriteIntervalMs ?? 5;
  }

  async open(instance: string): Promise<void> {
    this.instance = instance.replace(/[^\w.-]/g, '_');
    await mkdir(this.options.dir, { recursive: true });
    await this.next();
  }

  /*
   * A failed batch is retried whole by the journal: the part an earlier attempt put on disk
   * (before a rotation, say) is skipped, and a write that failed partway is cut off first, so
   * the file never holds a record twice or a torn line before the next.
   */
  async write(batch: readonly McpAuditEntry[]): Promise<void> {
    const { maxBytes = 64 * 1024 * 1024, maxAgeMs } = this.options;
    if (this.torn) {
      await this.handle!.truncate(this.bytes);
      this.torn = false;
    }
    const entries = batch[0]!.seq > this.writtenSeq ? batch : batch.filter(this.unwritten);
    if (entries.length === 0) return;
    if (maxAgeMs !== undefined && this.bytes > 0 && Date.now() - this.openedAt > maxAgeMs) {
      await this.next();
    }
    const chunks = lineChunks(entries).map((text) => Buffer.from(text));
    const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const last = entries[entries.length - 1]!.seq;
    // The usual case: the batch fits in the current file, one synced write.
    if (this.bytes + total <= maxBytes) return this.append(chunks, total, last);
    // Otherwise line by line, into as many files as it takes.
    let lines: Buffer[] = [];
    let size = 0;
    let seq = this.writtenSeq;
    for (const entry of entries) {
      const line = Buffer.from(entry.line + '\n');
      if (this.bytes + size > 0 && this.bytes + size + line.length > maxBytes) {
        await this.append(lines, size, seq);
        await this.next();
        lines = [];
        size = 0;
      }
      lines.push(line);
      size += line.length;
      seq = entry.seq;
    }
    await this.append(lines, size, seq);
  }

  private readonly unwritten = (entry: McpAuditEntry) => entry.seq > this.writtenSeq;

  private async append(data: Buffer[], size: number, lastSeq: number): Promise<void> {
    if (size === 0) return;
    try {
      // A write can end short without an error: a full disk or a file-size limit takes what fits.
      // The rest is written on, and fails there, so a batch is never counted kept in part.
      let left = data;
      let unwritten = size;
      for (;;) {
        const { bytesWritten } = await this.handle!.writev(left);
        unwritten -= bytesWritten;
        if (unwritten <= 0) break;
        if (bytesWritten === 0) throw new Error('the audit file took none of a write');
        left = after(left, bytesWritten);
      }
      if (DSYNC === undefined) await this.handle!.datasync();
    } catch (error) {
      this.torn = true;
      throw error;
    }
    this.bytes += size;
    this.writtenSeq = lastSeq;
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }

  private async next(): Promise<void> {
    await this.handle?.close();
    // Numbered once it opens: a file that could not be made (no inodes left) is tried again
    // under the same number, so the numbers run without a gap.
    const segment = this.segment + 1;
    const file = `audit-${this.instance}-${String(segment).padStart(SEGMENT_DIGITS, '0')}.jsonl`;
    this.handle = await open(join(this.options.dir, file), APPEND);
    this.segment = segment;
    this.bytes = (await this.handle.stat()).size;
    this.openedAt = Date.now();
    await this.prune();
  }

  /* Retention is the operator's choice (`maxFiles`); by default nothing is ever removed. */
  private async prune(): Promise<void> {
    const { maxFiles = 0 } = this.options;
    if (maxFiles <= 0) return;
    const mine = (await readdir(this.options.dir))
      .filter((file) => file.startsWith(`audit-${this.instance}-`) && file.endsWith('.jsonl'))
      .sort();
    for (const file of mine.slice(0, Math.max(0, mine.length - maxFiles))) {
      await rm(join(this.options.dir, file), { force: true });
    }
  }
}

/* `buffers` without their first `bytes` bytes. */
function after(buffers: readonly Buffer[], bytes: number): Buffer[] {
  const left: Buffer[] = [];
  let skip = bytes;
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
      continue;
    }
    left.push(skip > 0 ? buffer.subarray(skip) : buffer);
    skip = 0;
  }
  return left;
}
