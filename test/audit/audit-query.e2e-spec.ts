import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../../src/app/database/sqlite.connection.js';
import { runAuditCommand } from '../../src/cli/audit.command.js';
import { logDir } from './audit-app.js';

/*
 * `mcp-warden audit query`: --since and --until are times, not text, and the installed command
 * stops quietly when its reader does (`| head`).
 */

/** A folder with one record an hour, from 2026-12-06T22:00Z to 2026-12-08T01:00Z. */
function hourlyLog(): string {
  const dir = logDir();
  const lines = Array.from({ length: 28 }, (_, hour) => {
    const time = new Date(Date.UTC(2026, 11, 6, 22 + hour)).toISOString();
    return JSON.stringify({ id: `r${hour}`, kind: 'decision', time, name: 'fine' });
  });
  writeFileSync(join(dir, 'audit-x-000001.jsonl'), lines.join('\n') + '\n');
  return dir;
}

async function query(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runAuditCommand(['query', ...args], out.push.bind(out), err.push.bind(err));
  const times = out.map((line) => (JSON.parse(line) as { time: string }).time);
  return { status, times, err: err.join('\n') };
}

describe('mcp-warden audit query', () => {
  it('a day given alone to --until includes that day; --since starts at its first instant', async () => {
    const dir = hourlyLog();
    const { status, times } = await query(dir, '--since', '2026-12-07', '--until', '2026-12-07');
    expect(status).toBe(0);
    expect(times).toHaveLength(24);
    expect(times[0]).toBe('2026-12-07T00:00:00.000Z');
    expect(times[23]).toBe('2026-12-07T23:00:00.000Z');
  });

  it('compares times, not their text: an offset or a shorter form means the same instant', async () => {
    const dir = hourlyLog();
    const { times } = await query(
      dir,
      '--since',
      '2026-12-07T02:00:00+02:00',
      '--until',
      '2026-12-07T01:00Z',
    );
    expect(times).toEqual(['2026-12-07T00:00:00.000Z', '2026-12-07T01:00:00.000Z']);
  });

  it('refuses a bound that is not a time, with usage status 2', async () => {
    const dir = hourlyLog();
    for (const bad of ['yesterday', '2026-13-45', '']) {
      const { status, err } = await query(dir, '--since', bad);
      expect([bad, status]).toEqual([bad, 2]);
      expect(err).toContain('--since and --until take an ISO time');
    }
  });

  it('refuses a time without its offset and a day that does not exist', async () => {
    const dir = hourlyLog();
    // Without an offset the machine's zone would decide; 2026-02-31 would roll over to March.
    for (const bad of [
      '2026-12-07T23:00:00',
      '2026-12-07T23:00',
      '2026-02-31',
      '2026-12-07 10:00Z',
    ]) {
      const { status, err } = await query(dir, '--until', bad);
      expect([bad, status]).toEqual([bad, 2]);
      expect(err).toContain('--since and --until take an ISO time');
    }
  });

  it('lines that are no record, or records with no time, match no bound and crash nothing', async () => {
    const dir = hourlyLog();
    writeFileSync(
      join(dir, 'audit-x-000002.jsonl'),
      ['null', '[1]', '"text"', '{"id":"untimed","kind":"decision"}', '{"id":"odd","time":"soon"}']
        .map((line) => `${line}\n`)
        .join(''),
    );
    const bounded = await query(dir, '--since', '2026-12-06', '--until', '2027-01-01');
    expect(bounded.status).toBe(0);
    expect(bounded.times).toHaveLength(28);
    const out: string[] = [];
    const status = await runAuditCommand(
      ['query', dir, '--principal', 'p'],
      out.push.bind(out),
      out.push.bind(out),
    );
    expect([status, out]).toEqual([0, []]);
  });

  it('a table writes the control characters of a field escaped: no terminal sequence, no broken row', async () => {
    const dir = logDir();
    const record = {
      id: 'r1',
      kind: 'decision',
      time: '2026-12-07T00:00:00.000Z',
      principal: 'ev\u001b[31mil\nX\r',
      name: 't\u001b]0;pwned\u0007\u0085',
      detail: { nested: true },
    };
    writeFileSync(join(dir, 'audit-x-000001.jsonl'), `${JSON.stringify(record)}\n`);
    const out: string[] = [];
    const status = await runAuditCommand(
      ['query', dir, '--format', 'table'],
      out.push.bind(out),
      out.push.bind(out),
    );
    expect(status).toBe(0);
    expect(out).toHaveLength(2);
    // eslint-disable-next-line no-control-regex
    expect(out.join('\n')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out[1]).toContain('ev\\u001b[31mil\\nX\\r');
    expect(out[1]).toContain('\\u0085');
    expect(out[1]).toContain('{"nested":true}');
  });

  it('reads a table whose name is an SQL keyword, as the sink quotes it', async () => {
    const file = join(logDir(), 'audit.db');
    const db = await openSqlite(file);
    db.prepare('create table "order" (instance text, seq integer, line text)').run([]);
    const line = JSON.stringify({ id: 'k1', kind: 'decision', time: '2026-12-07T00:00:00.000Z' });
    db.prepare('insert into "order" values (?, ?, ?)').run(['i', 1, line]);
    db.close();
    const out: string[] = [];
    const status = await runAuditCommand(
      ['query', `sqlite:${file}`, '--table', 'order'],
      out.push.bind(out),
      out.push.bind(out),
    );
    expect([status, out]).toEqual([0, [line]]);
  });

  it('the installed command stops quietly when its reader closes the pipe', async () => {
    const dir = logDir();
    const line = JSON.stringify({ id: 'r', kind: 'decision', time: '2026-12-07T00:00:00Z' });
    writeFileSync(join(dir, 'audit-x-000001.jsonl'), `${line}\n`.repeat(200_000));
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>(
      (resolve, reject) =>
        execFile(
          'bash',
          ['-o', 'pipefail', '-c', `node dist/cli/mcp-warden.js audit query '${dir}' | head -1`],
          { maxBuffer: 1 << 20 },
          (error, stdout, stderr) =>
            // head exits first; the command's own status, under pipefail, must be 0.
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr }),
        ),
    );
    expect(stdout).toBe(`${line}\n`);
    expect(stderr).toBe('');
  });
});
