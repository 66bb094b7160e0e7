import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A schema of its own in the test database, and the URL that puts it on the search_path. */
export interface TestSchema {
  readonly name: string;
  /** `baseUrl` with `options=-c search_path=<name>`: every connection made from it works in the schema. */
  readonly url: string;
  /** Runs one statement on a connection of its own (for a test to look or meddle). */
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/*
 * Parallel jest workers and the three Node runs of CI share one database: each
 * suite works in a random schema, so none sees another's tables.
 */
export async function createTestSchema(baseUrl: string): Promise<TestSchema> {
  const name = `warden_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  const query = (text: string, values?: unknown[]) => queryOnce(url.toString(), text, values);
  await query(`create schema ${name}`);
  return {
    name,
    url: url.toString(),
    query,
    drop: async () => {
      await query(`drop schema if exists ${name} cascade`);
    },
  };
}

/** Runs one statement on a connection of its own to `url`. */
export async function queryOnce(
  url: string,
  text: string,
  values?: unknown[],
): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}
