import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import { join } from 'node:path';
import pg from 'pg';
import { openSqlite } from '../../src/app/database/sqlite.connection.js';
import { McpAuditSinks, type McpAuditEntry, type McpAuditSink } from '../../src/index.js';
import { createTestSchema, type TestSchema } from '../support/postgres-schema.js';
import { describeWithService, findService, TEST_DATABASE_URL } from '../support/services.js';
import { logDir } from './audit-app.js';

/*
 * The SQL sink cuts a batch into INSERTs of a few fixed sizes whose SQL is compiled once, in one
 * transaction: whatever a batch's size, every record is kept once and in order, and the
 * database sees a handful of distinct statements, not one per batch size.
 */

/** Entries `from`..`from + count - 1` of one chain (the sink does not read the line's JSON). */
function entries(from: number, count: number): McpAuditEntry[] {
  return Array.from({ length: count }, (_, index) => {
    const seq = from + index;
    return {
      instance: 'i-1',
      seq,
      line: `{"seq":${seq}}`,
      record: {
        id: `e${seq}`,
        kind: 'decision',
        time: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq)).toISOString(),
        connId: 'c1',
        transport: 'stdio',
        seam: 'tool',
        name: `tool_${seq % 3}`,
        decision: 'allow',
        principal: seq % 2 ? 'alice' : undefined,
      },
    } as McpAuditEntry;
  });
}

const BATCHES = [1, 3, 64, 85, 1000, 7];

async function keepsEveryBatch(db: Kysely<any>, inserts: string[]) {
  const sink: McpAuditSink = McpAuditSinks.sql({ db });
  await sink.open!('i-1');
  let next = 1;
  for (const size of BATCHES) {
    await sink.write(entries(next, size));
    next += size;
  }
  const rows = await db
    .selectFrom('mcp_audit_records')
    .select(['seq', 'line', 'name', 'principal'])
    .orderBy('seq')
    .execute();
  expect(rows.map((row) => Number(row.seq))).toEqual(
    Array.from({ length: next - 1 }, (_, index) => index + 1),
  );
  expect(rows[84]).toEqual({
    seq: expect.anything(),
    line: '{"seq":85}',
    name: 'tool_1',
    principal: 'alice',
  });
  expect(rows[85]!.principal).toBeNull();
  // 64, 16, 4 and 1 rows: four statements for 1,160 records in six batches.
  expect(new Set(inserts).size).toBe(4);
}

function insertsOf(into: string[]) {
  return (event: LogEvent) => {
    if (/^insert/i.test(event.query.sql)) into.push(event.query.sql);
  };
}

describe('SQL audit sink batches', () => {
  it('SQLite: every batch kept whole and in order, four INSERT statements in all', async () => {
    const inserts: string[] = [];
    const db = new Kysely<any>({
      dialect: new SqliteDialect({ database: await openSqlite(join(logDir(), 'batches.db')) }),
      log: insertsOf(inserts),
    });
    try {
      await keepsEveryBatch(db, inserts);
    } finally {
      await db.destroy();
    }
  });

  it('a batch is all or nothing: another record at one of its places fails it, none of it kept', async () => {
    const db = new Kysely<any>({
      dialect: new SqliteDialect({ database: await openSqlite(join(logDir(), 'whole.db')) }),
    });
    try {
      const sink = McpAuditSinks.sql({ db });
      await sink.open!('i-1');
      await sink.write(entries(1, 10));
      // 70 rows (64 + 4 + 1 + 1), the last of which is at a place another record holds.
      const [other] = entries(10, 1);
      const failed = await sink
        .write(entries(11, 69).concat({ ...other!, line: '{"seq":10,"forged":true}' }))
        .then(
          () => 'kept',
          (error: { message?: string }) => error.message,
        );
      expect(failed).toBe('another record is kept at i-1#10');
      expect(await count(db)).toBe(10);
    } finally {
      await db.destroy();
    }
  });

  it('a retried batch that was kept already (its answer lost) is kept once, not refused', async () => {
    await retriesAreKeptOnce(
      new Kysely<any>({
        dialect: new SqliteDialect({ database: await openSqlite(join(logDir(), 'retry.db')) }),
      }),
    );
  });
});

async function count(db: Kysely<any>): Promise<number> {
  const { count } = await db
    .selectFrom('mcp_audit_records')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/* One batch of a single INSERT and one of several, each written twice, then one overlapping. */
async function retriesAreKeptOnce(db: Kysely<any>) {
  try {
    const sink = McpAuditSinks.sql({ db });
    await sink.open!('i-1');
    for (const batch of [entries(1, 64), entries(65, 70)]) {
      await sink.write(batch);
      await sink.write(batch);
    }
    await sink.write(entries(130, 10));
    expect(await count(db)).toBe(139);
    const rows = await db.selectFrom('mcp_audit_records').select('seq').orderBy('seq').execute();
    expect(rows.map((row) => Number(row.seq))).toEqual(
      Array.from({ length: 139 }, (_, index) => index + 1),
    );
  } finally {
    await db.destroy();
  }
}

const postgres = await findService(TEST_DATABASE_URL);

describeWithService(postgres, 'SQL audit sink batches on PostgreSQL', (databaseUrl) => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema(databaseUrl);
  });
  afterAll(() => schema?.drop());

  it('every batch kept whole and in order, four INSERT statements in all', async () => {
    const inserts: string[] = [];
    const db = new Kysely<any>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: schema.url, max: 2 }) }),
      log: insertsOf(inserts),
    });
    try {
      await keepsEveryBatch(db, inserts);
    } finally {
      await db.destroy();
    }
  });

  it('a retried batch that was kept already (its answer lost) is kept once, not refused', async () => {
    const db = new Kysely<any>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: schema.url, max: 2 }) }),
    });
    await db.schema.dropTable('mcp_audit_records').ifExists().execute();
    await retriesAreKeptOnce(db);
  });
});
