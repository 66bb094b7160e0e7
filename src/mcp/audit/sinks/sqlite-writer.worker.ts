/*
 * The thread that keeps the SQLite sink's records (sqlite-worker.sink.ts starts it). SQLite's
 * Node drivers are synchronous: on the main thread, each commit (and the fsync that makes it
 * durable) would hold the event loop and every call waiting in it. Here the thread has its own
 * connection to the same file; WAL lets the app's connection keep reading meanwhile.
 *
 * It is CommonJS source run with `eval`, like the Cedar compile worker: one string serves the
 * ES module build, the CommonJS build and a bundled app, with no file to find at run time.
 *
 * workerData: { file, table, busyTimeoutMs, driver?, betterSqlite?: better-sqlite3's resolved path }.
 * Messages in: { id, chunks } (the batch's lines, each ending in a newline, a few to a string),
 * or { close: true }.
 * Messages out: { ready: true } | { ready: false, error }, then { id } or { id, error } a batch.
 */

import { AUDIT_COLUMNS } from './sql-table.sink.js';

const COLUMNS = AUDIT_COLUMNS.map((column) => `"${column}"`).join(', ');
/*
 * Each row's columns are read out of its line by SQLite (`->>`, JSON1, in the engine since
 * 3.38): the line is bound once, parsed once in C (SQLite keeps the parse for the statement's
 * other extractions), and no JavaScript object is built per record. A JSON.parse of each line
 * here, then eight bound values, cost the thread about a tenth more a line (docs/audit.md,
 * "Performance"; bench/sqlite-audit-rows.mjs measures both).
 */
export const ROW_VALUES = AUDIT_COLUMNS.map((column) =>
  column === 'line' ? ':line' : `:line ->> '${column}'`,
).join(', ');

export const SQLITE_WRITER_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { file, table, busyTimeoutMs, driver, betterSqlite } = workerData;

/* Node's own SQLite, its experimental warning (Node 22) dropped; undefined where there is none. */
function builtinSqlite() {
  const emit = process.emitWarning;
  process.emitWarning = (warning, ...rest) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite/i.test(text)) return;
    emit.call(process, warning, ...rest);
  };
  try {
    return process.getBuiltinModule && process.getBuiltinModule('node:sqlite');
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emit;
  }
}

/* The driver the options name; by default node:sqlite where it has columns() (22.16+), as the
   notes service decides, else better-sqlite3. */
function openDatabase() {
  const builtin = driver === 'better-sqlite3' ? undefined : builtinSqlite();
  const chosen =
    driver ||
    (builtin && builtin.StatementSync && typeof builtin.StatementSync.prototype.columns === 'function'
      ? 'node:sqlite'
      : 'better-sqlite3');
  if (chosen === 'node:sqlite') {
    if (!builtin || !builtin.DatabaseSync) throw new Error('this Node has no node:sqlite');
    return new builtin.DatabaseSync(file);
  }
  if (!betterSqlite) throw new Error('better-sqlite3 is not installed (npm install better-sqlite3)');
  return new (require(betterSqlite))(file);
}

/* The connection, its PRAGMAs and the table; or why there is none. */
function prepare() {
  const db = openDatabase();
  try {
    db.exec('PRAGMA busy_timeout = ' + busyTimeoutMs);
    db.exec('PRAGMA journal_mode = WAL');
    // Every commit synced: an audit record survives a power cut, as the app's own writes do.
    db.exec('PRAGMA synchronous = FULL');
    // The sql sink's table, so either sink (and audit verify, audit query) reads the other's rows.
    db.exec('BEGIN IMMEDIATE');
    db.exec('create table if not exists "' + table + '" ("instance" text not null, "seq" bigint not null, "time" text not null, "kind" text not null, "principal" text, "name" text, "decision" text, "line" text not null, constraint "' + table + '_pk" primary key ("instance", "seq"))');
    db.exec('create index if not exists "' + table + '_time" on "' + table + '" ("time")');
    db.exec('COMMIT');
    return {
      db,
      insert: db.prepare('insert into "' + table + '" (${COLUMNS}) values (' + ${JSON.stringify(ROW_VALUES)} + ') on conflict do nothing'),
      kept: db.prepare('select line from "' + table + '" where instance = (:line ->> ' + "'instance'" + ') and seq = (:line ->> ' + "'seq'" + ')'),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

/* A batch is one transaction: kept whole or not at all, and the journal retries it. Each row's
   columns are read back from its line, which holds the record and its place in the chain. A row
   already kept with the same line is a retry of a batch whose answer was lost (the thread
   stopped after its commit): it is kept once. Another line at that place fails the batch. */
function keep({ db, insert, kept }, chunks) {
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const line of chunks.flatMap((chunk) => chunk.split('\\n').slice(0, -1))) {
      const { changes } = insert.run({ line });
      if (Number(changes) === 0) {
        const row = kept.get({ line });
        if (!row || row.line !== line) {
          const record = JSON.parse(line);
          throw new Error('another record is kept at ' + record.instance + '#' + record.seq);
        }
      }
    }
    db.exec('COMMIT');
  } catch (error) {
    try { db.exec('ROLLBACK'); } catch {}
    throw error;
  }
}

const reason = (error) => String((error && error.message) || error);
let connection;
try {
  connection = prepare();
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ ready: false, error: reason(error) });
  parentPort.close();
}
if (connection) {
  parentPort.on('message', (message) => {
    if (message.close) {
      connection.db.close();
      parentPort.close();
      return;
    }
    try {
      keep(connection, message.chunks);
      parentPort.postMessage({ id: message.id });
    } catch (error) {
      parentPort.postMessage({ id: message.id, error: reason(error) });
    }
  });
}
`;
