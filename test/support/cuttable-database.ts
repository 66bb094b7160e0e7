import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { CuttableProxy } from './cuttable-proxy.js';
import { createTestSchema, type TestSchema } from './postgres-schema.js';

/**
 * A fresh schema of the real test database, reached through a TCP proxy the test can cut and
 * restore: `url` goes through the proxy; `db` is a Kysely on it when asked for.
 */
export interface CuttableDatabase {
  readonly schema: TestSchema;
  readonly proxy: CuttableProxy;
  /** The schema's URL through the proxy. */
  readonly url: string;
  /** Kysely over a small pool through the proxy (one, made on first use), whose connections a cut may drop. */
  kysely(): Kysely<any>;
  /** Destroys the Kysely, closes the proxy and drops the schema. */
  close(): Promise<void>;
}

export async function cuttableDatabase(databaseUrl: string): Promise<CuttableDatabase> {
  const schema = await createTestSchema(databaseUrl);
  const target = new URL(databaseUrl);
  const proxy = await CuttableProxy.start(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(schema.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  let db: Kysely<any> | undefined;
  return {
    schema,
    proxy,
    url: viaProxy.toString(),
    kysely() {
      if (db) return db;
      const pool = new pg.Pool({
        connectionString: viaProxy.toString(),
        max: 2,
        connectionTimeoutMillis: 500,
      });
      // A cut drops idle and checked-out connections alike; the pool replaces them.
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', () => undefined));
      db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
      return db;
    },
    async close() {
      await db?.destroy();
      await proxy.close();
      await schema.drop();
    },
  };
}
