import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { queryOnce as query } from '../../../test/support/postgres-schema.js';
import {
  describeWithService,
  findService,
  TEST_DATABASE_URL,
} from '../../../test/support/services.js';
import { firstSchemaOf, openNotesDatabase } from './notes-database.factory.js';

/*
 * A PostgreSQL search_path that names a schema not yet created: the notes database creates it
 * and migrates into it; where the user may not create it, or the search_path names none, the
 * error says what to run or set.
 */

describe('firstSchemaOf', () => {
  it('takes the first schema a search_path names, skipping $user and unquoting', () => {
    expect(firstSchemaOf('notes')).toBe('notes');
    expect(firstSchemaOf('"$user", public')).toBe('public');
    expect(firstSchemaOf('$user, "My Notes", public')).toBe('My Notes');
    expect(firstSchemaOf('"$user"')).toBeUndefined();
    expect(firstSchemaOf('')).toBeUndefined();
  });
});

/** `base` with `options=-c search_path=<path>`, as a deployment sets it (optionally as `user`). */
function withSearchPath(base: string, path: string, user?: string): string {
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${path}`);
  if (user) url.username = user;
  return url.toString();
}

/** PostgreSQL options (the data directory is the legacy import's, unused by the factory). */
const postgres = (url: string) =>
  ({ kind: 'postgres', url, dataDir: tmpdir(), announce: false }) as const;

describeWithService(
  await findService(TEST_DATABASE_URL),
  'the notes database on a search_path schema that does not exist yet',
  (url) => {
    const name = `warden_new_${randomBytes(6).toString('hex')}`;
    const role = `warden_nocreate_${randomBytes(6).toString('hex')}`;
    afterAll(async () => {
      await query(url, `drop schema if exists ${name} cascade`);
      await query(url, `drop role if exists ${role}`);
    });

    it('is created, and the notes tables are migrated into it', async () => {
      const opened = await openNotesDatabase(postgres(withSearchPath(url, name)));
      await opened.db.destroy();
      const tables = await query(
        url,
        `select table_name from information_schema.tables where table_schema = '${name}'`,
      );
      expect(tables.rows.map((row: { table_name: string }) => row.table_name)).toEqual(
        expect.arrayContaining(['notes']),
      );
    });

    it('a user who may not create it is told the statement to run', async () => {
      await query(url, `create role ${role} login`);
      const other = `${name}_other`;
      await expect(openNotesDatabase(postgres(withSearchPath(url, other, role)))).rejects.toThrow(
        `run  create schema "${other}";  as a user allowed to`,
      );
    });

    it('another schema dropped during the migration does not fail it', async () => {
      // Another application keeps creating and dropping schemas of its own while notes
      // databases open in fresh schemas: the migration's look at every table of the database
      // meets schemas as they go.
      let churning = true;
      const churn = (async () => {
        for (let n = 0; churning; n++) {
          const other = `${name}_churn_${n}`;
          await query(url, `create schema ${other}; create table ${other}.t (id serial, v text)`);
          await query(url, `drop schema ${other} cascade`);
        }
      })();
      const schemas = Array.from({ length: 12 }, (_, n) => `${name}_open_${n}`);
      try {
        for (const schema of schemas) {
          const opened = await openNotesDatabase(postgres(withSearchPath(url, schema)));
          await opened.db.destroy();
        }
      } finally {
        churning = false;
        await churn;
        for (const schema of schemas) await query(url, `drop schema if exists ${schema} cascade`);
      }
    });

    it('a search_path naming no schema at all says how to name one', async () => {
      await expect(openNotesDatabase(postgres(withSearchPath(url, '"$user"')))).rejects.toThrow(
        /no schema on its search_path \("\$user"\): name one in DATABASE_URL/,
      );
    });
  },
);
