import { mkdir, open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { McpAuditEntry, McpAuditSink } from '../audit-sink.interface.js';

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
}

const SEGMENT_DIGITS = 6;

/**
 * Append-only JSON Lines files with group commit: a batch is one write and one `fdatasync`, so
 * many records cost one flush to disk. A file is never rewritten; rotation opens the next
 * numbered file, and `mcp-warden audit verify` reads them in number order.
 */
export class JsonlFileSink implements McpAuditSink {
  readonly name = 'jsonl';
  private handle?: FileHandle;
  private instance = '';
  private segment = 0;
  private bytes = 0;
  private openedAt = 0;

  constructor(private readonly options: McpJsonlSinkOptions) {}

  async open(instance: string): Promise<void> {
    this.instance = instance.replace(/[^\w.-]/g, '_');
    await mkdir(this.options.dir, { recursive: true });
    await this.next();
  }

  async write(entries: readonly McpAuditEntry[]): Promise<void> {
    const { maxBytes = 64 * 1024 * 1024, maxAgeMs } = this.options;
    if (maxAgeMs !== undefined && this.bytes > 0 && Date.now() - this.openedAt > maxAgeMs) {
      await this.next();
    }
    let whole = '';
    for (const entry of entries) whole += entry.line + '\n';
    const total = Buffer.byteLength(whole);
    // The usual case: the batch fits in the current file, one write and one fdatasync.
    if (this.bytes + total <= maxBytes) return this.append(whole, total);
    // Otherwise line by line, into as many files as it takes.
    let text = '';
    let size = 0;
    for (const entry of entries) {
      const line = entry.line + '\n';
      const bytes = Buffer.byteLength(line);
      if (this.bytes + size > 0 && this.bytes + size + bytes > maxBytes) {
        await this.append(text, size);
        await this.next();
        text = '';
        size = 0;
      }
      text += line;
      size += bytes;
    }
    await this.append(text, size);
  }

  private async append(text: string, size: number): Promise<void> {
    if (size === 0) return;
    await this.handle!.write(text);
    await this.handle!.datasync();
    this.bytes += size;
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }

  private async next(): Promise<void> {
    await this.handle?.close();
    this.segment += 1;
    const file = `audit-${this.instance}-${String(this.segment).padStart(SEGMENT_DIGITS, '0')}.jsonl`;
    this.handle = await open(join(this.options.dir, file), 'a');
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
