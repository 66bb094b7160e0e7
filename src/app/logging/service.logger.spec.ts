import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { execFileSync } from 'node:child_process';
import { constants, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogLineWriter } from './log-line.writer.js';
import { ServiceLogger } from './service.logger.js';

describe('ServiceLogger (the service log: JSON lines on stderr)', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'service-logger-'));
    file = join(dir, 'stderr.log');
  });

  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  const records = () =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("writes its records through the audit lines' writer: each whole, in the order given", async () => {
    const direct = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const lines = new LogLineWriter(file);
    const logger = new ServiceLogger(false, lines);
    lines.write('{"audit":{"name":"first"}}\n');
    logger.warn('between', 'Notes');
    lines.write('{"audit":{"name":"second"}}\n{"audit":{"name":"third"}}\n');
    logger.error('after', undefined, 'Notes');
    await lines.close();

    expect(
      records().map((record) => (record.audit as { name?: string })?.name ?? record.message),
    ).toEqual(['first', 'between', 'second', 'third', 'after']);
    expect(records()[1]).toMatchObject({ level: 'warn', context: 'Notes', message: 'between' });
    expect(records()[4]).toMatchObject({ level: 'error', context: 'Notes', message: 'after' });
    // Nothing of it was written beside the writer.
    expect(direct).not.toHaveBeenCalled();
  });

  it('on a terminal writes coloured text itself, as Nest does, and leaves the writer alone', async () => {
    const direct = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const lines = new LogLineWriter(file);
    new ServiceLogger(true, lines).warn('to the terminal', 'Notes');
    await lines.close();
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(String(direct.mock.calls[0]?.[0])).toContain('to the terminal');
  });
});

describe('LogLineWriter.idle (a shutdown waits for the last lines of a shared writer)', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'log-idle-'));
    // What the writer says of a reader that went away is not this test's.
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resolves once every line taken so far is written, the writer still open', async () => {
    const file = join(dir, 'out.log');
    const lines = new LogLineWriter(file);
    const text = Array.from({ length: 2_000 }, (_, n) => `{"n":${n}}\n`).join('');
    for (let n = 0; n < 20; n++) lines.write(text);
    // A bound far past the test's own timeout: only the lines being written can resolve it.
    await lines.idle(10 * 60_000);
    expect(readFileSync(file, 'utf8')).toBe(text.repeat(20));
    // Still open: it takes lines after its idle.
    lines.write('{"n":"last"}\n');
    await lines.idle(10 * 60_000);
    expect(readFileSync(file, 'utf8').endsWith('{"n":"last"}\n')).toBe(true);
    await lines.close();
  });

  it('gives up after its bound on a reader that reads nothing, and at once when the reader goes', async () => {
    const end = join(dir, 'pipe');
    execFileSync('mkfifo', [end]);
    const read = openSync(end, constants.O_RDONLY | constants.O_NONBLOCK);
    const lines = new LogLineWriter(end);
    // Past what the pipe holds: the last write waits on the reader for good.
    const line = JSON.stringify({ text: 'x'.repeat(1_000) }) + '\n';
    for (let n = 0; n < 200; n++) lines.write(line);
    const started = performance.now();
    await lines.idle(300);
    // Its own bound, not the default of 2 s.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(1_500);
    // The reader goes: the write that waited on it fails (EPIPE), and nothing waits on the rest.
    const waiting = lines.idle(60_000);
    closeSync(read);
    await waiting;
    expect(performance.now() - started).toBeLessThan(30_000);
    await lines.close();
  });
});
