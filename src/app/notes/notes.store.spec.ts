import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSchema, type TestSchema } from '../../../test/support/postgres-schema.js';
import {
  describeWithService,
  findService,
  TEST_DATABASE_URL,
} from '../../../test/support/services.js';
import type { NotesDatabaseOptions } from '../database/notes-database.options.js';
import { sql, type Kysely } from 'kysely';
import { sqliteFile } from '../database/notes-database.options.js';
import { openSqlite } from '../database/sqlite.connection.js';
import type { Note } from './note.interface.js';
import { NotesStore } from './notes.store.js';
import { NoteTextError } from './note-text.js';
import { rejection } from '../../../test/support/rejection.js';

/* The store's contract, on SQLite and on a real PostgreSQL, through a second connection too. */

/** One database the store runs on, and a connection of the test's own to it. */
interface Backend {
  options(dataDir: string): NotesDatabaseOptions;
  /** Runs `text` on the test's own connection; the rows it returns, if any. */
  sql(text: string): Promise<Record<string, unknown>[]>;
  /** The statements that make every insert of tag `tag` fail, in the database itself (a trigger). */
  failTag(tag: string): string[];
  dispose(): Promise<void>;
}

function sqliteBackend(dataDir: string): Backend {
  let connection: Awaited<ReturnType<typeof openSqlite>> | undefined;
  return {
    options: (dir) => ({ kind: 'sqlite', dataDir: dir, announce: false }),
    async sql(text) {
      connection ??= await openSqlite(sqliteFile({ dataDir }));
      const statement = connection.prepare(text);
      if (statement.reader) return statement.all([]) as Record<string, unknown>[];
      statement.run([]);
      return [];
    },
    failTag: (tag) => [
      `create trigger fail_tag before insert on note_tags when new.tag = '${tag}' ` +
        `begin select raise(abort, 'injected failure'); end`,
    ],
    async dispose() {
      connection?.close();
    },
  };
}

function postgresBackend(schema: TestSchema): Backend {
  return {
    options: (dir) => ({ kind: 'postgres', url: schema.url, dataDir: dir, announce: false }),
    sql: async (text) => (await schema.query(text)).rows as Record<string, unknown>[],
    failTag: (tag) => [
      `create function fail_tag() returns trigger language plpgsql as $$ begin ` +
        `if new.tag = '${tag}' then raise exception 'injected failure'; end if; return new; end $$`,
      'create trigger fail_tag before insert on note_tags for each row execute function fail_tag()',
    ],
    dispose: () => schema.drop(),
  };
}

function storeContract(name: string, makeBackend: (dataDir: string) => Promise<Backend>): void {
  describe(`NotesStore on ${name}`, () => {
    let dataDir: string;
    let backend: Backend;
    const stores: NotesStore[] = [];

    beforeEach(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'notes-store-'));
      backend = await makeBackend(dataDir);
    });
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.onApplicationShutdown();
      await backend.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function started(): Promise<NotesStore> {
      const store = new NotesStore(backend.options(dataDir));
      stores.push(store);
      await store.onModuleInit();
      return store;
    }

    /** What the database holds, read on the test's own connection: title → tags. */
    async function inDatabase(): Promise<Record<string, string[]>> {
      const rows = await backend.sql(
        'select n.title, t.tag from notes n left join note_tags t on t.note_id = n.id order by n.seq, t.seq',
      );
      const held: Record<string, string[]> = {};
      for (const row of rows) {
        held[row.title as string] ??= [];
        if (row.tag !== null) held[row.title as string].push(row.tag as string);
      }
      return held;
    }

    function byTitle(notes: Note[]): Record<string, string[]> {
      return Object.fromEntries(notes.map((note) => [note.title, note.tags]));
    }

    it('creates, reads, searches, completes and deletes notes as before', async () => {
      const store = await started();
      const first = await store.create(
        'Straße Plan',
        'Budget 100% of Q3',
        ['ops', 'ops', 'Team'],
        'carol',
      );
      const second = await store.create('other', 'body_with_underscore', []);
      expect(first).toMatchObject({ title: 'Straße Plan', tags: ['ops', 'Team'], author: 'carol' });
      expect(second).not.toHaveProperty('author');
      expect(await store.get(first.id)).toEqual(first);
      expect(await store.get('nope')).toBeUndefined();
      expect((await store.list()).map((note) => note.id)).toEqual([first.id, second.id]);

      const titles = async (query: string) => (await store.search(query, 10)).map((n) => n.title);
      expect(await titles('STRASSE')).toEqual([]); // includes(), not a collation
      expect(await titles('STRAßE')).toEqual(['Straße Plan']);
      expect(await titles('team')).toEqual(['Straße Plan']); // tags match too
      expect(await titles('100%')).toEqual(['Straße Plan']);
      expect(await titles('0%')).toEqual(['Straße Plan']);
      expect(await titles('%')).toEqual(['Straße Plan']); // a literal percent sign, not a wildcard
      expect(await titles('y_w')).toEqual(['other']);
      expect(await titles('b_d')).toEqual([]); // a literal underscore: 'bod' is no match
      expect(await store.search('e', 1)).toHaveLength(1);

      expect(await store.idsStartingWith(first.id.slice(0, 4))).toContain(first.id);
      expect(await store.idsStartingWith('')).toEqual([first.id, second.id]);
      expect(await store.idsStartingWith(first.id.toUpperCase() + 'x')).toEqual([]);

      expect(await store.delete(first.id)).toBe(true);
      expect(await store.delete(first.id)).toBe(false);
      expect(await store.get(first.id)).toBeUndefined();
      expect(await inDatabase()).toEqual({ other: [] }); // its tags went with it
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('adds a tag once, at the end, and nothing to a note that does not exist', async () => {
      const store = await started();
      const note = await store.create('t', 'b', ['a']);
      expect((await store.addTag(note.id, 'b'))?.tags).toEqual(['a', 'b']);
      expect((await store.addTag(note.id, 'a'))?.tags).toEqual(['a', 'b']);
      expect(await store.addTag('missing', 'x')).toBeUndefined();
      expect(await backend.sql(`select tag from note_tags where note_id = 'missing'`)).toEqual([]);
    });

    it('a failed write fails only its own call: nothing half-written, the next write succeeds', async () => {
      const store = await started();
      const kept = await store.create('kept', 'b', ['x']);
      // Inserting tag "y" fails in the database, after a create's note row went in. The trigger
      // is made on the store's own connection, so it is in force for the very next statement.
      const own = (store as unknown as { database: Kysely<unknown> }).database;
      for (const statement of backend.failTag('y')) await sql.raw(statement).execute(own);
      // By its message: the driver's error may come from another spec file's realm (rejection.ts).
      expect((await rejection(store.create('half', 'b', ['y']))).message).toMatch(
        /injected failure/,
      );
      expect((await rejection(store.addTag(kept.id, 'y'))).message).toMatch(/injected failure/);

      await expect(store.create('next', 'b', ['z'])).resolves.toMatchObject({ title: 'next' });
      expect(await inDatabase()).toEqual({ kept: ['x'], next: ['z'] });
      expect(byTitle(await store.list())).toEqual(await inDatabase());
    });

    it('refuses NUL characters in a write (PostgreSQL cannot keep them) and finds nothing for them', async () => {
      const store = await started();
      const note = await store.create('t', 'b', []);
      await expect(store.create('a\0b', 'b', [])).rejects.toThrow(NoteTextError);
      await expect(store.create('t', 'b', ['x\0'])).rejects.toThrow("The note's tag cannot");
      await expect(store.addTag(note.id, '\0')).rejects.toThrow(NoteTextError);
      expect(await store.search('t\0', 10)).toEqual([]);
      expect(await store.get(`${note.id}\0`)).toBeUndefined();
      expect(await store.idsStartingWith('\0')).toEqual([]);
      expect(await store.delete(`${note.id}\0`)).toBe(false);
      expect(await inDatabase()).toEqual({ t: [] });
    });

    it('a closed store refuses calls instead of hanging', async () => {
      const store = await started();
      await store.onApplicationShutdown();
      await expect(store.create('t', 'b', [])).rejects.toThrow('not open');
      await expect(store.ping()).rejects.toThrow('not open');
    });

    it('another store on the same database sees every write at once', async () => {
      const a = await started();
      const b = await started();
      const note = await a.create('from a', 'b', []);
      expect(await b.get(note.id)).toEqual(note);
      await b.addTag(note.id, 'from-b');
      expect((await a.get(note.id))?.tags).toEqual(['from-b']);
      expect(await b.delete(note.id)).toBe(true);
      expect(await a.list()).toEqual([]);
    });

    it('imports a notes.json of the former store once, in one go, and renames it', async () => {
      const legacy: Note[] = [
        {
          id: 'n1',
          title: 'one',
          body: 'b1',
          tags: ['x', 'y'],
          createdAt: '2026-01-01T00:00:00.000Z',
          author: 'ann',
        },
        { id: 'n2', title: 'two', body: 'b2', tags: [], createdAt: '2026-01-02T00:00:00.000Z' },
      ];
      writeFileSync(join(dataDir, 'notes.json'), JSON.stringify(legacy, null, 2));
      const store = await started();
      expect(await store.list()).toEqual(legacy);
      expect(existsSync(join(dataDir, 'notes.json'))).toBe(false);
      expect(JSON.parse(readFileSync(join(dataDir, 'notes.json.imported'), 'utf8'))).toEqual(
        legacy,
      );
      await store.onApplicationShutdown();

      // A second file (say, restored from a backup) imports again; a note already there stays as it is.
      writeFileSync(
        join(dataDir, 'notes.json'),
        JSON.stringify([{ ...legacy[0], title: 'changed' }]),
      );
      const again = await started();
      expect(await again.list()).toEqual(legacy);
      expect(existsSync(join(dataDir, 'notes.json.imported.1'))).toBe(true);
    });

    it('refuses to start on a notes.json it cannot read as notes, and leaves the file alone', async () => {
      writeFileSync(join(dataDir, 'notes.json'), '[{"id": 1}]');
      const store = new NotesStore(backend.options(dataDir));
      await expect(store.onModuleInit()).rejects.toThrow('entry 0 is not a note');
      writeFileSync(join(dataDir, 'notes.json'), '[half');
      await expect(store.onModuleInit()).rejects.toThrow('is not JSON');
      expect(readFileSync(join(dataDir, 'notes.json'), 'utf8')).toBe('[half');
    });
  });
}

storeContract('SQLite', async (dataDir) => sqliteBackend(dataDir));

describeWithService(
  await findService(TEST_DATABASE_URL),
  'the notes store on PostgreSQL',
  (url) => {
    storeContract('PostgreSQL', async () => postgresBackend(await createTestSchema(url)));

    describe('two stores with separate pools on one PostgreSQL', () => {
      let schema: TestSchema;
      let dataDir: string;
      const stores: NotesStore[] = [];
      beforeEach(async () => {
        schema = await createTestSchema(url);
        dataDir = mkdtempSync(join(tmpdir(), 'notes-store-'));
      });
      afterEach(async () => {
        for (const store of stores.splice(0)) await store.onApplicationShutdown();
        await schema.drop();
        rmSync(dataDir, { recursive: true, force: true });
      });

      it('start together, write together, and lose nothing: every note, every tag', async () => {
        const started = await Promise.all(
          [0, 1].map(async () => {
            const store = new NotesStore({
              kind: 'postgres',
              url: schema.url,
              dataDir,
              announce: false,
            });
            stores.push(store);
            await store.onModuleInit(); // both migrate at once: one waits for the other's lock
            return store;
          }),
        );
        const [a, b] = started;
        const shared = await a.create('shared', 'b', []);
        const writes = await Promise.all(
          started.flatMap((store, s) =>
            Array.from({ length: 40 }, (_, i) => [
              store.create(`s${s}-${i}`, 'b', [`t${i}`]),
              store.addTag(shared.id, `s${s}-tag${i}`),
            ]).flat(),
          ),
        );
        expect(writes).toHaveLength(160);
        const notes = await b.list();
        expect(notes).toHaveLength(81);
        const tags = (await a.get(shared.id))!.tags;
        expect(new Set(tags)).toEqual(
          new Set([0, 1].flatMap((s) => Array.from({ length: 40 }, (_, i) => `s${s}-tag${i}`))),
        );
        expect(tags).toHaveLength(80);
      });
    });
  },
);
