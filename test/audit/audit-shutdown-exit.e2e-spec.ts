import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { built, logDir, recordsOf } from './audit-app.js';

/*
 * A shutdown with a batch waiting out its sink's write window, in a process with nothing else
 * to keep it alive (a stdio server whose input has ended): the journal's wait for its records
 * keeps the process alive and writes the batch at once, so the process ends its shutdown, with
 * every record kept, rather than exiting mid-way (exit code 13: a top-level await unsettled).
 */

/* The child: the built journal and file sink, a long write window, one record before it opens. */
const CHILD = `
import { McpAuditJournalService } from ${JSON.stringify(built('mcp/audit/journal/audit-journal.service.js'))};
import { McpAuditSinks } from ${JSON.stringify(built('index.js'))};
const journal = new McpAuditJournalService('exit', {
  sinks: [McpAuditSinks.jsonl({ dir: process.argv[2], minWriteIntervalMs: 1_000 })],
});
await journal.onApplicationBootstrap();
const event = (id) => ({ id, kind: 'decision', time: new Date().toISOString(), connId: 'c1',
  requestId: id, transport: 'stdio', seam: 'tool', name: 'fine', decision: 'allow' });
journal.append(event('first'), false);
// The first write starts at the end of this turn; the second record waits out the window.
await new Promise((done) => setTimeout(done, 50));
journal.append(event('second'), false);
await new Promise((done) => setImmediate(done));
await journal.onApplicationShutdown();
process.stdout.write('closed\\n');
`;

describe('audit: a shutdown in a process with nothing else alive', () => {
  it('ends, every record kept, though a batch was waiting out its write window', async () => {
    const dir = logDir();
    const script = join(logDir(), 'child.mjs');
    writeFileSync(script, CHILD);
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((done) =>
      execFile(process.execPath, [script, dir], { timeout: 30_000 }, (error, out) =>
        done({ code: error ? (error.code as number) : 0, stdout: out }),
      ),
    );
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'closed\n' });
    const ids = (await recordsOf(dir)).map((record) => record.id as string);
    expect(ids).toEqual(['first', 'second']);
  });
});
