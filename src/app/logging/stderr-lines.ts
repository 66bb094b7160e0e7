import { LogLineWriter } from './log-line.writer.js';

let shared: LogLineWriter | undefined;

/**
 * The process's one writer of lines to stderr, shared by the service's logger and its audit
 * lines (docs/notes-service.md, "Logs"). Two writers to one pipe can interleave: a write longer
 * than the pipe takes at once is split when the pipe is full, and the other writer's line can
 * land in the gap. One writer writes every line whole, in the order it was given them.
 *
 * It outlives the app (the logger writes after the app has closed), so it is never closed: what
 * is still queued when the process exits is written synchronously then.
 */
export function stderrLines(): LogLineWriter {
  if (!shared) {
    const writer = new LogLineWriter(2);
    process.once('exit', () => writer.flushSync());
    shared = writer;
  }
  return shared;
}

/**
 * Exits with `code` once the lines written so far have left (2 s at most: a reader that stopped
 * reading does not hold the exit). `process.exit` alone would cut off a write still in flight.
 */
export async function exitWhenWritten(code: number): Promise<never> {
  await stderrLines().idle();
  process.exit(code);
}

/** A failed start or run: its reason on one plain line, after whatever was said before it. */
export function exitWithReason(error: unknown): Promise<never> {
  stderrLines().write(`mcp-warden: ${(error as Error)?.message ?? String(error)}\n`);
  return exitWhenWritten(1);
}
