import { Logger } from '@nestjs/common';
import { basename, dirname } from 'node:path';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';

/** Where the audit file goes and how big it may grow. */
export interface AuditFileOptions {
  readonly file: string;
  /** A file past this many bytes is rotated (`audit.jsonl` → `audit.jsonl.1` …). */
  readonly maxBytes: number;
  /** Rotated files kept besides the live one; older ones are removed. */
  readonly files: number;
}

/** Bytes the sink may hold while the disk is slower than the calls; past it lines are counted, not kept. */
const MAX_PENDING_BYTES = 8 * 1024 * 1024;

/** The audit file options from AUDIT_LOG_FILE (off without it), AUDIT_LOG_MAX_BYTES, AUDIT_LOG_FILES. */
export function auditFileFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): AuditFileOptions | undefined {
  const file = env.AUDIT_LOG_FILE;
  if (!file) return undefined;
  const positive = (value: string | undefined, fallback: number) => {
    const number = Number(value);
    return Number.isInteger(number) && number > 0 ? number : fallback;
  };
  return {
    file,
    maxBytes: positive(env.AUDIT_LOG_MAX_BYTES, 10 * 1024 * 1024),
    files: positive(env.AUDIT_LOG_FILES, 5),
  };
}

/**
 * A durable copy of the audit stream: an append-only JSON Lines file rotated
 * by size (rotating-file-stream, the classic `.1`, `.2` … scheme). A line is
 * never rewritten; a slow disk costs at most MAX_PENDING_BYTES of memory, and
 * what it could not keep is counted and said in the service log.
 */
export class AuditFileSink {
  private readonly logger = new Logger('Audit');
  private readonly stream: RotatingFileStream;
  private dropped = 0;

  constructor(options: AuditFileOptions) {
    this.stream = createStream(basename(options.file), {
      path: dirname(options.file),
      size: `${options.maxBytes}B`,
      rotate: options.files,
    });
    this.stream.on('error', (error) => this.logger.error(`audit file: ${error.message}`));
    this.stream.on('warning', (error) => this.logger.warn(`audit file: ${error.message}`));
  }

  write(lines: string): void {
    if (this.stream.writableLength > MAX_PENDING_BYTES) {
      this.dropped += lines.split('\n').length - 1;
      return;
    }
    if (this.dropped > 0) {
      this.logger.warn(`audit file: ${this.dropped} events not written (the disk fell behind)`);
      this.dropped = 0;
    }
    this.stream.write(lines);
  }

  /** Resolves once every line written so far is in the file. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.stream.end(() => resolve());
    });
  }
}
