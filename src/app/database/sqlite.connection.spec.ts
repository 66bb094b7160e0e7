import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, SQLITE_BUSY_TIMEOUT_MS, sqliteDriverName } from './sqlite.connection.js';

describe('openSqlite', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-connection-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("uses Node's built-in driver from Node 22 on, so no addon built for another ABI is loaded", () => {
    const [major, minor] = process.versions.node.split('.').map(Number);
    const builtIn = major > 22 || (major === 22 && minor >= 16);
    expect(sqliteDriverName()).toBe(builtIn ? 'node:sqlite' : 'better-sqlite3');
  });

  it('opens in WAL mode, syncing every commit, with foreign keys and a bounded lock wait', async () => {
    const database = await openSqlite(join(dir, 'notes.sqlite'));
    try {
      const pragma = (name: string) =>
        Object.values(database.prepare(`pragma ${name}`).all([])[0] as object)[0];
      expect(pragma('journal_mode')).toBe('wal');
      expect(pragma('synchronous')).toBe(2); // FULL
      expect(pragma('foreign_keys')).toBe(1);
      expect(pragma('busy_timeout')).toBe(SQLITE_BUSY_TIMEOUT_MS);
    } finally {
      database.close();
    }
  });

  it('tells reading statements from writing ones, and binds parameters by position', async () => {
    const database = await openSqlite(join(dir, 'notes.sqlite'));
    try {
      database.prepare('create table t (a text, b integer)').run([]);
      const insert = database.prepare('insert into t values (?, ?)');
      expect(insert.reader).toBe(false);
      expect(insert.run(['x', 2]).changes).toBe(1);
      const select = database.prepare('select a, b from t where b = ?');
      expect(select.reader).toBe(true);
      expect(select.all([2])).toEqual([{ a: 'x', b: 2 }]);
    } finally {
      database.close();
    }
  });
});
