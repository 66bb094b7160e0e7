import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { built, logDir } from './audit-app.js';

/*
 * `failClosed` on a JSON Lines file that can take no more: a write that ends short (what a full
 * disk or a file-size limit does, without an error) keeps none of its batch, so no call is told
 * its record is kept unless every byte of it is in the file. A real limit: the journal runs in a
 * child process under `ulimit -f` (RLIMIT_FSIZE), whose writes past it end short, then fail.
 */

const LIMIT_KIB = 48;

/* The child: a journal with failClosed and the built package's file sink, 1 KiB records. */
const CHILD = `
import { McpAuditJournalService } from ${JSON.stringify(built('mcp/audit/journal/audit-journal.service.js'))};
import { McpAuditSinks } from ${JSON.stringify(built('index.js'))};
const journal = new McpAuditJournalService('limit', {
  sinks: [McpAuditSinks.jsonl({ dir: process.argv[2] })],
  failClosed: true,
  failClosedTimeoutMs: 5_000,
});
await journal.onApplicationBootstrap();
const kept = [];
let refused = 0;
for (let call = 0; call < 160; call += 1) {
  // Four calls at a time: batches of several records, so a write can end inside one.
  const batch = Array.from({ length: 4 }, (_, i) => {
    const id = 'call-' + call + '-' + i;
    const event = { id, kind: 'decision', time: new Date().toISOString(), connId: 'c1',
      requestId: call, transport: 'stdio', seam: 'tool', name: 'fine', decision: 'allow',
      detail: 'x'.repeat(1_000) };
    return journal.append(event, true).then(() => kept.push(id), () => (refused += 1));
  });
  await Promise.all(batch);
}
await journal.onApplicationShutdown();
process.stdout.write('\\nresult ' + JSON.stringify({ kept, refused }) + '\\n');
`;

function runLimited(script: string, dir: string): Promise<{ kept: string[]; refused: number }> {
  return new Promise((done, fail) =>
    execFile(
      'bash',
      ['-c', `ulimit -f ${LIMIT_KIB} && exec "$0" "$@"`, process.execPath, script, dir],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        error
          ? fail(new Error(`${error.message}\n${stderr}`))
          : done(JSON.parse(/^result (.*)$/m.exec(stdout)![1]!)),
    ),
  );
}

describe('audit.failClosed on a file that can take no more', () => {
  it('tells no call its record is kept unless the whole record is in the file', async () => {
    const dir = logDir();
    const script = join(logDir(), 'child.mjs');
    writeFileSync(script, CHILD);
    const { kept, refused } = await runLimited(script, dir);
    // The limit was reached, and records were kept before it.
    expect(refused).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(10);
    const lines = readdirSync(dir).flatMap((file) =>
      readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean),
    );
    const whole = new Set<string>();
    lines.forEach((line, index) => {
      try {
        whole.add((JSON.parse(line) as { id: string }).id);
      } catch {
        // Only the file's end may hold the part of a write that ended short.
        expect(index).toBe(lines.length - 1);
      }
    });
    expect(kept.filter((id) => !whole.has(id))).toEqual([]);
  });
});
