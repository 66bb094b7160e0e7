import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogLineWriter } from './log-line.writer.js';

/** One log line of about 1 KiB, numbered. */
const line = (n: number) => JSON.stringify({ n, text: 'x'.repeat(1_000) }) + '\n';

describe('LogLineWriter (the service log, written off the event loop)', () => {
  let dir: string;
  let out: string;
  let reader: ChildProcess | undefined;
  let warnings: string[];
  let errors: string[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'log-lines-'));
    out = join(dir, 'read.log');
    warnings = [];
    errors = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => {
      errors.push(String(message));
    });
  });

  afterEach(async () => {
    if (reader && reader.exitCode === null && reader.signalCode === null) {
      reader.kill('SIGCONT');
      reader.kill('SIGKILL');
      await once(reader, 'exit');
    }
    reader = undefined;
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  /*
   * A real pipe (a FIFO) to a real reader (`cat`, copying it to `out`), as a service's stderr is
   * a pipe to whoever started it. The writer opens the pipe's write end by its path.
   */
  async function pipeToCat(): Promise<{ cat: ChildProcess; end: string }> {
    const end = join(dir, 'pipe');
    execFileSync('mkfifo', [end]);
    const target = openSync(out, 'w');
    const cat = spawn('cat', [end], { stdio: ['ignore', target, 'ignore'] });
    closeSync(target);
    await once(cat, 'spawn');
    reader = cat;
    return { cat, end };
  }

  const numbers = () =>
    readFileSync(out, 'utf8')
      .split('\n')
      .filter((text) => text !== '')
      .map((text) => (JSON.parse(text) as { n: number }).n);

  it('writes every line, in order, before close resolves', async () => {
    const { cat, end } = await pipeToCat();
    const writer = new LogLineWriter(end);
    for (let n = 1; n <= 500; n++) writer.write(line(n));
    // Listened for before the close: `cat` exits once the pipe is closed, and its exit may be
    // handled before the close's own callback, when a later listener would wait for good.
    const exited = once(cat, 'exit');
    await writer.close();
    await exited;
    expect(numbers()).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(warnings).toEqual([]);
  });

  it('never holds the event loop for a reader that stopped reading, and bounds what it keeps', async () => {
    const end = join(dir, 'pipe');
    execFileSync('mkfifo', [end]);
    // The reader: this test, which reads nothing until the writes are done.
    const read = openSync(end, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = new LogLineWriter(end, 64 * 1024);
    // 2 MiB for a reader that reads nothing: a write on the event loop would block here for good
    // (a pipe holds 64 KiB), and the test would time out.
    let turns = 0;
    for (let n = 1; n <= 2_000; n++) {
      writer.write(line(n));
      if (n % 100 === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        turns += 1;
      }
    }
    expect(turns).toBe(20);

    // The reader reads again, to the end of the pipe (the writer closed).
    let closed = false;
    const closing = writer.close().then(() => (closed = true));
    const chunks: Buffer[] = [];
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      let got = -1;
      try {
        got = readSync(read, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
      if (got === 0 && closed) break;
      if (got > 0) chunks.push(chunk.subarray(0, got));
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await closing;
    closeSync(read);
    const kept = Buffer.concat(chunks)
      .toString()
      .split('\n')
      .filter((text) => text !== '')
      .map((text) => (JSON.parse(text) as { n: number }).n);
    // Whole lines only, in order; what did not fit is counted and said, and nothing else is lost.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(2_000);
    expect([...kept].sort((x, y) => x - y)).toEqual(kept);
    expect(new Set(kept).size).toBe(kept.length);
    expect(warnings).toEqual([
      `${2_000 - kept.length} log lines not written: the log's reader fell behind`,
    ]);
    // Bounded: the pipe's 64 KiB and the writer's 64 KiB, give or take a write in flight.
    expect(kept.length * line(1).length).toBeLessThan(3 * 64 * 1024 + 20 * 1024);
  });

  it('at the exit, writes the rest of a line the full pipe cut short before the lines after it', async () => {
    // The reader to come, stopped before it reads a byte.
    const { cat, end } = await pipeToCat();
    cat.kill('SIGSTOP');
    // The pipe stays open for reading meanwhile, by this test, which reads nothing.
    const read = openSync(end, constants.O_RDONLY | constants.O_NONBLOCK);
    // Not blocking, as a service's stderr is when it is a pipe: a full pipe answers EAGAIN.
    const fd = openSync(end, constants.O_WRONLY | constants.O_NONBLOCK);
    const writer = new LogLineWriter(fd);
    const retrying = () => (writer as unknown as { retrying: boolean }).retrying;
    // About 100 KiB for a pipe of 64 KiB: a write is cut short mid-line, and its rest waits on
    // sonic-boom's retry timer (100 ms), with the lines after it queued.
    for (let n = 1; n <= 100; n++) writer.write(line(n));
    // Checked every turn, so the exit's flush below runs right after the retry was decided,
    // well before its timer fires.
    while (!retrying()) await new Promise<void>((resolve) => setImmediate(resolve));

    // The reader reads again, and the process exits: the exit's flush writes as `cat` reads.
    cat.kill('SIGCONT');
    writer.flushSync();
    closeSync(read);

    // (This process goes on, unlike one that exits: the retry's timer finds nothing left.)
    while (retrying()) await new Promise<void>((resolve) => setImmediate(resolve));
    const exited = once(cat, 'exit');
    await writer.close();
    await exited;
    // Every line whole (each parses) and in order, none twice.
    expect(numbers()).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(errors).toEqual([]);
  });

  it('does not hold a shutdown for a reader that never reads again', async () => {
    const end = join(dir, 'pipe');
    execFileSync('mkfifo', [end]);
    const read = openSync(end, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = new LogLineWriter(end);
    // Past what the pipe holds: the writer's last write waits on the reader for good.
    for (let n = 1; n <= 200; n++) writer.write(line(n));
    await writer.close();
    // The close gave up waiting (its bound is 2 s, under the test's timeout). The reader goes
    // now, and the write that waited on it ends in EPIPE, said once, before the next test.
    closeSync(read);
    while (errors.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(errors).toEqual([expect.stringMatching(/^log lines not written: .*EPIPE/)]);
  });

  it('says once that its reader went away, and keeps taking lines without throwing', async () => {
    const end = join(dir, 'pipe');
    execFileSync('mkfifo', [end]);
    // The test reads the pipe itself, without blocking, so it knows when the writer is through.
    const read = openSync(end, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = new LogLineWriter(end);
    writer.write(line(1));
    const first = Buffer.alloc(line(1).length);
    let got = 0;
    while (got === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        got = readSync(read, first);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
    }
    expect(JSON.parse(first.subarray(0, got).toString()).n).toBe(1);
    // No reader is left: every write from now on fails with EPIPE.
    closeSync(read);
    for (let n = 2; n <= 50; n++) {
      writer.write(line(n));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await writer.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^log lines not written: .*EPIPE/);
  });
});
