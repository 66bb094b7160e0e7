import { jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSchema, type TestSchema } from '../../../test/support/postgres-schema.js';
import {
  describeWithService,
  findService,
  TEST_DATABASE_URL,
} from '../../../test/support/services.js';
import type { McpToolContext, McpWarden } from '../../index.js';
import { NoteKeyReusedError } from '../database/note-keys.js';
import type { NotesDatabaseOptions } from '../database/notes-database.options.js';
import { NotesStore } from './notes.store.js';
import { NotesTools } from './notes.tools.js';

/*
 * create_note's idempotency key, on SQLite and on a real PostgreSQL: a retry
 * whose first call may have run (its answer lost, "outcome unknown") returns
 * that call's note instead of making a second one, however the two race.
 */

/**
 * The contract on one database. `racers`: how many stores race in one process (two SQLite
 * connections in one thread would wait on each other's lock; two processes race on SQLite, and
 * the service's suites run them).
 */
function idempotencyContract(
  name: string,
  options: (dataDir: string) => Promise<NotesDatabaseOptions>,
  racers: number,
) {
  describe(`create_note's idempotency key on ${name}`, () => {
    let dataDir: string;
    let settings: NotesDatabaseOptions;
    const stores: NotesStore[] = [];

    beforeEach(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'notes-keys-'));
      settings = await options(dataDir);
    });
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.onApplicationShutdown();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** A store of its own (its own connection or pool) on the test's database. */
    async function started(): Promise<NotesStore> {
      const store = new NotesStore(settings);
      stores.push(store);
      await store.onModuleInit();
      return store;
    }

    it('the same key again answers the first call with its note, and makes none', async () => {
      const store = await started();
      const first = await store.createOnce('k-1', 'plan', 'body', ['a'], 'ann');
      expect(first.replayed).toBe(false);
      const again = await store.createOnce('k-1', 'plan', 'body', ['a'], 'ann');
      expect(again).toEqual({ note: first.note, replayed: true });
      expect(await store.list()).toEqual([first.note]);
    });

    it('calls racing with one key make one note', async () => {
      const stores = await Promise.all(Array.from({ length: racers }, () => started()));
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          stores[i % racers].createOnce('race', 't', 'b', [], 'ann'),
        ),
      );
      expect(new Set(results.map((result) => result.note.id)).size).toBe(1);
      expect(results.filter((result) => !result.replayed)).toHaveLength(1);
      expect(await stores[0].list()).toHaveLength(1);
    });

    it('a key is its author’s: another caller, or no caller, with the same key makes its own note', async () => {
      const store = await started();
      const ann = await store.createOnce('same', 't', 'b', [], 'ann');
      const bob = await store.createOnce('same', 't', 'b', [], 'bob');
      const nobody = await store.createOnce('same', 't', 'b', []);
      expect(new Set([ann.note.id, bob.note.id, nobody.note.id]).size).toBe(3);
      expect(bob.note.author).toBe('bob');
      expect((await store.createOnce('same', 't', 'b', [])).note).toEqual(nobody.note);
    });

    it('refuses a key sent again with other content; without a key nothing is deduplicated', async () => {
      const store = await started();
      await store.createOnce('k', 'title', 'body', [], 'ann');
      await expect(store.createOnce('k', 'title', 'other body', [], 'ann')).rejects.toThrow(
        NoteKeyReusedError,
      );
      await store.create('title', 'body', [], 'ann');
      await store.create('title', 'body', [], 'ann');
      expect(await store.list()).toHaveLength(3);
    });

    it('a key is kept as long as its note: once the note is deleted, the key makes a new one', async () => {
      const store = await started();
      const first = await store.createOnce('k', 't', 'b', ['x'], 'ann');
      expect(await store.delete(first.note.id)).toBe(true);
      const second = await store.createOnce('k', 't', 'b', ['x'], 'ann');
      expect(second.replayed).toBe(false);
      expect(second.note.id).not.toBe(first.note.id);
    });

    it('the tool: a retry with the key returns the same note and announces nothing new', async () => {
      const store = await started();
      const notify = jest.fn();
      const tools = new NotesTools(store, { notify } as unknown as McpWarden);
      const log = jest.fn();
      const ctx = { principal: { subject: 'ann' }, log } as unknown as McpToolContext;
      const args = { title: 't', body: 'b', idempotencyKey: 'retry-me' };
      const first = await tools.create(args, ctx);
      expect(await tools.create(args, ctx)).toEqual(first);
      expect(log).toHaveBeenCalledTimes(1);
      expect(notify).toHaveBeenCalledTimes(1);
      await expect(tools.create({ ...args, body: 'changed' }, ctx)).rejects.toThrow(
        'already used for a different note',
      );
    });
  });
}

idempotencyContract('SQLite', async (dataDir) => ({ kind: 'sqlite', dataDir, announce: false }), 1);

describeWithService(
  await findService(TEST_DATABASE_URL),
  'the notes store on PostgreSQL',
  (url) => {
    let schema: TestSchema;
    afterEach(async () => {
      await schema.drop();
    });
    idempotencyContract(
      'PostgreSQL',
      async (dataDir) => {
        schema = await createTestSchema(url);
        return { kind: 'postgres', url: schema.url, dataDir, announce: false };
      },
      2,
    );
  },
);
