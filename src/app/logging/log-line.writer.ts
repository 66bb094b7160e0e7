import { Logger } from '@nestjs/common';
import { once } from 'node:events';
import sonicBoom from 'sonic-boom';

/* A CommonJS package: an ES module finds its class on what it imports. */
const { SonicBoom } = sonicBoom;

/** Bytes held while the log's reader is slower than the calls; past it lines are counted, not kept. */
export const MAX_PENDING_LOG_BYTES = 8 * 1024 * 1024;

/* How often the exit's flush retries a full pipe (sonic-boom waits 100 ms between tries). */
const EXIT_FLUSH_TRIES = 5;

/** How long a close waits for the last lines to leave (a reader that stopped reading). */
const CLOSE_WAIT_MS = 2_000;

/**
 * Lines for the service's log, written off the event loop (docs/notes-service.md, "Logs").
 * Node writes to a pipe on stderr synchronously on Linux, so each write held the event loop in
 * `write(2)`, and every call with it whenever the log's reader was slow to read. sonic-boom
 * (pino's destination) hands the writes to the thread pool instead, one at a time and in order,
 * and retries a full pipe. It holds at most `maxPendingBytes`; what did not fit is counted, and
 * said once the reader has caught up.
 */
export class LogLineWriter {
  private readonly logger = new Logger('LogLines');
  private readonly boom: InstanceType<typeof SonicBoom>;
  private dropped = 0;
  private failed = false;
  private closing?: Promise<void>;
  /* Bytes taken and not yet written: what `idle()` waits for. */
  private unwritten = 0;
  private readonly idleWaiters = new Set<() => void>();
  /* Set by the exit's flush, which tries a full pipe only a few times. */
  private exitTries?: number;
  /* A write the full pipe cut short waits on sonic-boom's retry timer. */
  private retrying = false;

  /** `destination`: a file descriptor (2, stderr, by default) or a file's path. */
  constructor(destination: number | string = 2, maxPendingBytes = MAX_PENDING_LOG_BYTES) {
    this.boom = new SonicBoom({
      dest: destination,
      sync: false,
      maxLength: maxPendingBytes,
      // A full pipe is retried (every 100 ms) until the reader reads, but at the exit only a few times.
      retryEAGAIN: () => {
        if (this.exitTries !== undefined) return ++this.exitTries < EXIT_FLUSH_TRIES;
        this.retrying = true;
        return true;
      },
    });
    this.boom.on('drop', (text: string) => {
      this.dropped += lineCount(text);
      this.wrote(Buffer.byteLength(text));
    });
    this.boom.on('write', (bytes: number) => {
      this.retrying = false;
      this.wrote(bytes);
    });
    this.boom.on('error', (error: Error) => {
      this.retrying = false;
      this.failure(error);
    });
    // Everything queued is written: the reader caught up, and the loss can be said without
    // waiting on it (the service's logger writes to the same stderr, on the event loop).
    this.boom.on('drain', () => this.sayDropped());
  }

  private wrote(bytes: number): void {
    this.unwritten -= bytes;
    if (this.unwritten <= 0) this.releaseIdle();
  }

  private releaseIdle(): void {
    for (const resolve of this.idleWaiters) resolve();
  }

  private sayDropped(): void {
    if (this.dropped === 0) return;
    this.logger.warn(`${this.dropped} log lines not written: the log's reader fell behind`);
    this.dropped = 0;
  }

  /* Said once: the log itself may be what failed (a reader that went away). */
  private failure(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    // Nothing more will be written: no one waits for it.
    this.releaseIdle();
    this.logger.error(`log lines not written: ${error.message}`);
  }

  /**
   * Queues whole lines, each ending in a newline; returns at once, whatever the reader does.
   * Once the writer is closing, lines are not taken.
   */
  write(lines: string): void {
    if (this.closing) return;
    const bytes = Buffer.byteLength(lines);
    try {
      this.unwritten += bytes;
      this.boom.write(lines);
    } catch (error) {
      this.unwritten -= bytes;
      // sonic-boom throws when it has no file to write to (a path it could not open).
      this.dropped += lineCount(lines);
      this.failure(error as Error);
    }
  }

  /**
   * Resolves once every line taken so far is written (or dropped), or after `timeoutMs`: a
   * shutdown waits for the last lines of a writer that other code still writes to.
   */
  idle(timeoutMs = CLOSE_WAIT_MS): Promise<void> {
    if (this.unwritten <= 0 || this.failed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.idleWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.idleWaiters.add(done);
    });
  }

  /**
   * Writes what is queued, now, on the calling thread: for the process's `exit`, after which
   * nothing asynchronous runs. A write still in flight in the thread pool is not waited for.
   * A reader that stopped reading is given up on after a few tries (it must not hold the exit).
   */
  flushSync(): void {
    if (this.closing || this.failed || this.unwritten <= 0) return;
    this.exitTries = 0;
    if (this.retrying) this.resumeCutWrite();
    try {
      this.boom.flushSync();
    } catch {
      // Not written: the reader is gone or stopped reading; there is no one left to tell.
    }
  }

  /*
   * sonic-boom's own flushSync passes over the chunk a full pipe cut short while its retry waits
   * on a timer (the chunk still counts as being written), so the lines after it would be written
   * straight after half a line, and the chunk's rest never. Marked as not being written, the
   * chunk goes first, whole, and the lines after it follow in order. These are sonic-boom 4's
   * own fields, checked before use; log-line.writer.spec.ts fails should they change. The retry
   * timer may have just handed the chunk to the thread pool, in which case part of it could be
   * written twice: a repeated line at an exit, where without this a line is torn.
   */
  private resumeCutWrite(): void {
    const boom = this.boom as unknown as { _writing?: unknown; _writingBuf?: unknown };
    const rest = boom._writingBuf;
    // After a write cut short, sonic-boom keeps the rest as a Buffer; its flushSync takes either.
    if (typeof boom._writing === 'boolean' && (typeof rest === 'string' || Buffer.isBuffer(rest))) {
      boom._writing = false;
    }
  }

  /**
   * Writes what is queued, then closes; stdout and stderr stay open. Waits CLOSE_WAIT_MS at most:
   * a reader that stopped reading does not hold the shutdown.
   */
  close(): Promise<void> {
    this.closing ??= this.end();
    return this.closing;
  }

  private async end(): Promise<void> {
    // Given up on after CLOSE_WAIT_MS, or on an error: either way the shutdown goes on.
    const closed = once(this.boom, 'close', { signal: AbortSignal.timeout(CLOSE_WAIT_MS) });
    this.boom.end();
    await closed.catch(() => undefined);
    // The loss is said before the service goes.
    this.sayDropped();
  }
}

function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
