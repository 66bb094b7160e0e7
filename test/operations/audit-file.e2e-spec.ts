import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MAIN_STDIO, StdioScript, makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * The audit stream's durable sink: with AUDIT_LOG_FILE every audit event is
 * also one JSON line in an append-only file, rotated by size, keeping
 * AUDIT_LOG_FILES old files; every event reaches it before the process exits.
 */

const MAX_BYTES = 2_000;
const CALLS = 40;

describe('the audit file (AUDIT_LOG_FILE)', () => {
  let dir: string | undefined;
  let child: StdioScript | undefined;
  afterEach(async () => {
    await child?.dispose();
    await removeDataDir(dir);
  });

  it(`${CALLS} calls: every event in the files, rotated past ${MAX_BYTES} bytes, two old files kept`, async () => {
    dir = await makeDataDir();
    const file = join(dir, 'audit', 'audit.jsonl');
    child = new StdioScript(MAIN_STDIO, {
      DATA_DIR: dir,
      AUDIT_LOG_FILE: file,
      AUDIT_LOG_MAX_BYTES: String(MAX_BYTES),
      AUDIT_LOG_FILES: '2',
    });
    await child.initialize();
    for (let call = 0; call < CALLS; call++) {
      await child.request('tools/call', { name: 'search_notes', arguments: { query: `q${call}` } });
    }
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });

    const names = (await readdir(join(dir, 'audit'))).sort();
    expect(names).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2']);
    // Oldest first: the rotated files, then the live one.
    const texts = await Promise.all(
      ['audit.jsonl.2', 'audit.jsonl.1', 'audit.jsonl'].map((name) =>
        readFile(join(dir!, 'audit', name), 'utf8'),
      ),
    );
    const events = texts.flatMap((text) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).audit as Record<string, unknown>),
    );
    for (const text of texts) expect(Buffer.byteLength(text)).toBeLessThan(MAX_BYTES + 400);
    // The newest events are all there, in order, ending with the last call's.
    const searched = events.filter((e) => e.name === 'search_notes');
    expect(searched.at(-1)).toMatchObject({ seam: 'tool', decision: 'allow', transport: 'stdio' });
    expect(searched.length).toBeGreaterThan(10);
    // The same lines went to stderr: the file keeps the latest of them, none altered.
    const logged = child.stderr.auditEvents();
    expect(logged.slice(-events.length)).toEqual(events);
  });
});
