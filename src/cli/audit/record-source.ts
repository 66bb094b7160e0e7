import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { auditTableName } from '../../mcp/audit/sinks/sql-table.sink.js';
import type { StoredLine } from '../../mcp/audit/verify/chain-verifier.js';
import { appRequire } from '../bundle/app-require.js';

/**
 * The stored lines of an audit source, in stored order: a JSON Lines folder (or one file), a
 * PostgreSQL URL, or a SQLite database (`sqlite:<path>`). The database drivers are the app's
 * own (pg; node:sqlite or better-sqlite3), loaded from the current directory.
 */
export async function readAuditSource(source: string, table?: string): Promise<StoredLine[]> {
  if (/^postgres(ql)?:\/\//.test(source)) return readPostgres(source, auditTableName(table));
  if (source.startsWith('sqlite:'))
    return readSqlite(source.slice('sqlite:'.length), auditTableName(table));
  const info = await stat(source);
  const files = info.isDirectory()
    ? (await readdir(source))
        .filter((file) => file.endsWith('.jsonl'))
        .sort()
        .map((file) => join(source, file))
    : [source];
  const lines: StoredLine[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    const number = /-(\d+)\.jsonl$/.exec(file)?.[1];
    const segment = number === undefined ? undefined : Number(number);
    const pieces = text.split('\n');
    pieces.forEach((line, index) => {
      if (line.trim() === '') return;
      // The last piece has no newline after it (a whole file ends in one).
      const unterminated = index === pieces.length - 1;
      lines.push({ where: `${file}:${index + 1}`, line, segment, unterminated });
    });
  }
  return lines;
}

async function readPostgres(url: string, table: string): Promise<StoredLine[]> {
  const { Client } = appRequire()('pg') as typeof import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ instance: string; seq: string; line: string }>(
      `select instance, seq, line from "${table}" order by instance, seq`,
    );
    return result.rows.map((row) => ({
      where: `${table} ${row.instance}#${row.seq}`,
      line: row.line,
    }));
  } finally {
    await client.end();
  }
}

/* What node:sqlite and better-sqlite3 have in common, as far as reading goes. */
interface SqliteDb {
  prepare(sql: string): { all(): unknown[] };
  close(): void;
}
type SqliteConstructor = new (file: string, options: object) => SqliteDb;
interface SqliteModule {
  DatabaseSync: SqliteConstructor;
}

interface SqliteRow {
  instance: string;
  seq: number;
  line: string;
}

function readSqlite(path: string, table: string): StoredLine[] {
  // Quoted as the sinks' Kysely quotes it: a name such as `order`, or one in capitals, reads back.
  const query = `select instance, seq, line from "${table}" order by instance, seq`;
  // Node's built-in where the runtime has it (22.5+), else the app's better-sqlite3 (Node 20).
  const builtin = process.getBuiltinModule?.('node:sqlite') as SqliteModule | undefined;
  const db = builtin
    ? new builtin.DatabaseSync(path, { readOnly: true })
    : new (appRequire()('better-sqlite3') as SqliteConstructor)(path, { readonly: true });
  let rows: SqliteRow[];
  try {
    rows = db.prepare(query).all() as SqliteRow[];
  } finally {
    db.close();
  }
  return rows.map((row) => ({ where: `${table} ${row.instance}#${row.seq}`, line: row.line }));
}
