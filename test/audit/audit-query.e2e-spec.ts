import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
