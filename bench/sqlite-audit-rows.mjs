// What keeping one audit record costs the SQLite sink's writer thread, per line: the statement
// the sink uses (the line bound once, each column read out of it by SQLite with `->>`) beside
// the way it replaced (each line parsed with JSON.parse, its eight columns bound one by one).
// Both write the same rows into the same table, in transactions of a batch each, with the
// sink's PRAGMAs (WAL, synchronous FULL), on every SQLite driver this Node has.
//
//   npm run build && node bench/sqlite-audit-rows.mjs [--lines 700] [--batches 40] [--runs 3]
//
// 700 lines is a batch of the notes service under the throughput-http load. The ways are
// interleaved over the runs; each figure is the median run's process CPU per line.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GENESIS, lineDigest } from '../dist/mcp/audit/chain/audit-record.js';
import { recordLine } from '../dist/mcp/audit/chain/record-line.js';
import { argumentsDigest } from '../dist/mcp/authorization/audit/arguments-digest.js';
import { lineChunks } from '../dist/mcp/audit/sinks/line-chunks.js';
import { AUDIT_COLUMNS } from '../dist/mcp/audit/sinks/sql-table.sink.js';
import { ROW_VALUES } from '../dist/mcp/audit/sinks/sqlite-writer.worker.js';
import { median } from './lib/measure.mjs';

const { values: flags } = parseArgs({
  options: {
    lines: { type: 'string', default: '700' },
    batches: { type: 'string', default: '40' },
    runs: { type: 'string', default: '3' },
  },
});
const LINES = Number(flags.lines);
const BATCHES = Number(flags.batches);

/* Every driver this Node can open: better-sqlite3 as installed (built for one Node), node:sqlite
   where it has columns() (22.16+), which the sink's thread prefers. */
function drivers() {
  const found = {};
  try {
    const BetterSqlite = createRequire(import.meta.url)('better-sqlite3');
    new BetterSqlite(':memory:').close();
    found['better-sqlite3'] = (file) => new BetterSqlite(file);
  } catch (error) {
    console.log(`better-sqlite3 not measured: ${error.code ?? error.message}`);
  }
  const builtin = process.getBuiltinModule?.('node:sqlite');
  if (typeof builtin?.StatementSync?.prototype.columns === 'function') {
    found['node:sqlite'] = (file) => new builtin.DatabaseSync(file);
  }
  return found;
}

/* A fresh file with the sink's table, as its thread opens it. */
function open(connect, file) {
  const db = connect(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec(
    'create table audit ("instance" text not null, "seq" bigint not null, "time" text not null, "kind" text not null, "principal" text, "name" text, "decision" text, "line" text not null, primary key ("instance", "seq"))',
  );
  db.exec('create index audit_time on audit ("time")');
  return db;
}

const COLUMNS = AUDIT_COLUMNS.map((column) => `"${column}"`).join(', ');
const ways = {
  'JSON.parse, eight values bound (before)': (db) => {
    const insert = db.prepare(
      `insert into audit (${COLUMNS}) values (${AUDIT_COLUMNS.map(() => '?').join(', ')}) on conflict do nothing`,
    );
    return (line) => {
      const record = JSON.parse(line);
      insert.run(
        ...AUDIT_COLUMNS.map((field) => (field === 'line' ? line : (record[field] ?? null))),
      );
    };
  },
  'the line bound once, columns read by SQLite (the sink)': (db) => {
    const insert = db.prepare(
      `insert into audit (${COLUMNS}) values (${ROW_VALUES}) on conflict do nothing`,
    );
    return (line) => insert.run({ line });
  },
};

/*
 * The journal's own lines, chained (a search_notes call's decision and outcome), as the thread
 * has them: posted in chunks of at most 32 KiB (sinks/line-chunks.ts), split there.
 */
let seq = 0;
let prev = GENESIS;
function batch() {
  const entries = Array.from({ length: LINES }, (_, index) => {
    const event = {
      id: `0b6f1c2e-8f0a-4a8e-9d3c-${String(++seq).padStart(12, '0')}`,
      kind: index % 2 ? 'outcome' : 'decision',
      time: new Date(1.8e12 + seq).toISOString(),
      connId: `connection-${seq % 32}`,
      requestId: seq,
      transport: 'http',
      principal: 'anonymous',
      era: 'handshake',
      seam: 'tool',
      name: 'search_notes',
      decision: 'allow',
      policies: ['notes-read'],
      policyVersion: 'a1b2c3d4',
      argumentsDigest: argumentsDigest({ query: `hello${seq}` }),
    };
    const line = recordLine(event, 'bench-instance', seq, prev);
    prev = lineDigest(line);
    return { line };
  });
  return lineChunks(entries).flatMap((chunk) => chunk.split('\n').slice(0, -1));
}

const dir = mkdtempSync(join(tmpdir(), 'mcp-warden-sqlite-rows-'));
try {
  for (const [driver, connect] of Object.entries(drivers())) {
    const results = Object.fromEntries(Object.keys(ways).map((way) => [way, []]));
    const dbs = Object.keys(ways).map((way, index) =>
      open(connect, join(dir, `${driver}-${index}.db`)),
    );
    const keepers = Object.values(ways).map((way, index) => way(dbs[index]));
    for (let run = 0; run < Number(flags.runs); run++) {
      // The same lines for every way (each keeps its own file), made before any is timed.
      const batches = Array.from({ length: BATCHES }, batch);
      for (const [index, way] of Object.keys(ways).entries()) {
        const db = dbs[index];
        const keep = keepers[index];
        const start = process.cpuUsage();
        for (const lines of batches) {
          db.exec('BEGIN IMMEDIATE');
          for (const line of lines) keep(line);
          db.exec('COMMIT');
        }
        const used = process.cpuUsage(start);
        results[way].push({
          total: (used.user + used.system) / (BATCHES * LINES),
          user: used.user / (BATCHES * LINES),
        });
      }
    }
    for (const db of dbs) db.close();
    console.log(
      `${driver}, ${LINES} lines a batch, ${BATCHES} batches, ${flags.runs} runs (Node ${process.version}):`,
    );
    for (const [way, values] of Object.entries(results)) {
      const totals = values.map((value) => value.total);
      const user = median(values.map((value) => value.user));
      console.log(
        `  ${way}: ${median(totals).toFixed(2)} µs of CPU a line, ${user.toFixed(2)} of it in user space (runs ${totals.map((v) => v.toFixed(2)).join(', ')})`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
