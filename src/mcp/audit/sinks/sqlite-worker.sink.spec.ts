import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { readAuditSource } from '../../../cli/audit/record-source.js';
import type { McpAuditEntry } from '../audit-sink.interface.js';
import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';
import { recordLine } from '../chain/record-line.js';
import { SqliteWorkerSink } from './sqlite-worker.sink.js';

/* A record as the journal hands it over: its line is the chain's, which the thread reads back. */
function entry(seq: number): McpAuditEntry {
  const record: McpAuditEvent = {
    id: String(seq),
    kind: 'decision',
    time: `2026-12-06T00:00:${String(seq % 60).padStart(2, '0')}.000Z`,
    connId: 'c',
    requestId: seq,
    transport: 'http',
    seam: 'tool',
    // Not only ASCII: what the thread reads back is what it was given.
    name: 'écho',
    decision: 'allow',
    principal: 'alice',
  };
  return { seq, instance: 'i', record, line: recordLine(record, 'i', seq, 'prev') };
}
const entries = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => entry(from + index));

interface TestDb {
  exec(sql: string): unknown;
  prepare(sql: string): { all(): unknown[] };
  close(): void;
}

/* A connection of the test's own, on the main thread: the driver the sink's thread also picks. */
function connect(file: string): TestDb {
  const builtin = process.getBuiltinModule?.('node:sqlite') as
    { DatabaseSync: new (file: string) => TestDb } | undefined;
  if (builtin) return new builtin.DatabaseSync(file);
  const BetterSqlite = createRequire(join(process.cwd(), 'package.json'))('better-sqlite3') as new (
    file: string,
  ) => TestDb;
  return new BetterSqlite(file);
}

describe('SqliteWorkerSink', () => {
  let dir: string;
  let file: string;
  let sink: SqliteWorkerSink;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-warden-sqlite-sink-'));
    file = join(dir, 'audit.sqlite');
    sink = new SqliteWorkerSink({ file });
  });
  afterEach(async () => {
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps batches whole and in order, with the columns audit query filters on', async () => {
    await sink.open();
    for (const [from, count] of [
      [1, 1],
      [2, 100],
      [102, 3],
    ] as const) {
      await sink.write(entries(from, count));
    }
    const lines = await readAuditSource(`sqlite:${file}`);
    expect(lines.map((stored) => stored.line)).toEqual(entries(1, 104).map((kept) => kept.line));
    const db = connect(file);
    try {
      expect(
        db
          .prepare(
            'select instance, seq, time, kind, principal, name, decision from mcp_audit_records where seq = 7',
          )
          .all(),
      ).toEqual([
        {
          instance: 'i',
          seq: 7,
          time: '2026-12-06T00:00:07.000Z',
          kind: 'decision',
          principal: 'alice',
          name: 'écho',
          decision: 'allow',
        },
      ]);
    } finally {
      db.close();
    }
  });

  it('lets the event loop turn while a batch waits for the write lock', async () => {
    await sink.open();
    const other = connect(file);
    other.exec('BEGIN IMMEDIATE');
    let kept = false;
    const writing = sink.write(entries(1, 5)).then(() => {
      kept = true;
    });
    // A synchronous driver on this thread would hold the loop until the lock is free.
    const turns = await new Promise<number>((resolve) => {
      let count = 0;
      const tick = setInterval(() => {
        if (++count === 5) {
          clearInterval(tick);
          resolve(count);
        }
      }, 10);
    });
    expect(turns).toBe(5);
    expect(kept).toBe(false);
    other.exec('COMMIT');
    other.close();
    await writing;
    expect(kept).toBe(true);
    expect(await readAuditSource(`sqlite:${file}`)).toHaveLength(5);
  });

  it('refuses a batch whole when another record is kept at one of its places, and keeps serving', async () => {
    await sink.open();
    await sink.write(entries(1, 2));
    // seq 2 again, with another line: not a retry of what was kept.
    const [, second, third] = entries(1, 3);
    const other = { ...second!, line: second!.line.replace('alice', 'mallory') };
    await expect(sink.write([other, third!])).rejects.toThrow(
      /SQLite audit sink: another record is kept at i#2/,
    );
    // Nothing of it was kept: seq 3 neither.
    expect(await readAuditSource(`sqlite:${file}`)).toHaveLength(2);
    await sink.write(entries(3, 2));
    const lines = await readAuditSource(`sqlite:${file}`);
    expect(lines.map((stored) => stored.line)).toEqual(entries(1, 4).map((kept) => kept.line));
  });

  it('keeps a retried batch once, when it was kept before its answer was lost', async () => {
    await sink.open();
    await sink.write(entries(1, 3));
    // The journal retries a batch whose answer it never had: the same lines, some already kept.
    await sink.write(entries(2, 4));
    const lines = await readAuditSource(`sqlite:${file}`);
    expect(lines.map((stored) => stored.line)).toEqual(entries(1, 5).map((kept) => kept.line));
  });

  it('fails a batch in flight when its thread stops, and writes the next on a new one', async () => {
    await sink.open();
    const thread = (await (sink as unknown as { thread: Promise<{ worker: Worker }> }).thread)
      .worker;
    // The lock held, so the batch cannot commit before the thread is told to stop.
    const other = connect(file);
    other.exec('BEGIN IMMEDIATE');
    const lost = sink.write(entries(1, 3));
    const stopped = thread.terminate();
    other.exec('COMMIT');
    other.close();
    await stopped;
    await expect(lost).rejects.toThrow(/its thread exited/);
    expect(await readAuditSource(`sqlite:${file}`)).toHaveLength(0);
    // The journal retries the batch: here by hand.
    await sink.write(entries(1, 3));
    expect(await readAuditSource(`sqlite:${file}`)).toHaveLength(3);
    const now = await (sink as unknown as { thread: Promise<{ worker: Worker }> }).thread;
    expect(now.worker).not.toBe(thread);
  });

  it('opens the file with the driver it is named, not another', async () => {
    // Two copies of SQLite in one process miss each other's locks: the app's driver must be used.
    const columns = (
      process.getBuiltinModule?.('node:sqlite') as
        { StatementSync?: { prototype: { columns?: unknown } } } | undefined
    )?.StatementSync?.prototype.columns;
    const other = new SqliteWorkerSink({
      file,
      driver: typeof columns === 'function' ? 'better-sqlite3' : 'node:sqlite',
    });
    // Here the other driver cannot load: better-sqlite3 is built for Node 20 only (and CI builds
    // it in the background, so a run may come here before it is built at all: "Could not locate
    // the bindings file", the paths it tried on the lines after), and Node 20 has no
    // node:sqlite. Had the option been ignored, the sink would open.
    await expect(other.open()).rejects.toThrow(
      typeof columns === 'function'
        ? /cannot open .*(NODE_MODULE_VERSION|better-sqlite3)/s
        : /no node:sqlite/,
    );
    await other.close();
  });

  it('refuses a batch once closed, starting no thread for it', async () => {
    await sink.open();
    await sink.close();
    await expect(sink.write(entries(1, 1))).rejects.toThrow(/closed/);
    expect((sink as unknown as { thread?: unknown }).thread).toBeUndefined();
  });

  it('fails open when the file cannot be opened, naming it', async () => {
    const nowhere = new SqliteWorkerSink({ file: join(dir, 'missing', 'audit.sqlite') });
    await expect(nowhere.open()).rejects.toThrow(/cannot open .*missing/);
    await nowhere.close();
  });
});
