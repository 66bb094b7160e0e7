import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSchema, type TestSchema } from '../../../test/support/postgres-schema.js';
import {
  describeWithService,
  findService,
  TEST_DATABASE_URL,
} from '../../../test/support/services.js';
import type { NotesDatabaseOptions } from '../database/notes-database.options.js';
import type { Note } from './note.interface.js';
import {
  EXPORT_LIMITS,
  EXPORTS_FOLDER,
  exportNotes,
  NotesExportError,
  type ExportLimits,
  type NotePages,
} from './notes.export.js';
import { NotesStore } from './notes.store.js';

/*
 * export_notes' work: every note, in keyset pages from the store, into a JSON Lines file under
 * the data directory, with progress per page; stopped between pages by its signal; bounded in
 * notes, bytes and kept files. On SQLite and on a real PostgreSQL (its count is a bigint).
 */

const SMALL: ExportLimits = { ...EXPORT_LIMITS, pageSize: 2 };

function exportContract(name: string, options: (dataDir: string) => Promise<NotesDatabaseOptions>) {
  describe(`exporting the notes on ${name}`, () => {
    let dataDir: string;
    let store: NotesStore;

    beforeEach(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'notes-export-'));
      store = new NotesStore(await options(dataDir));
      await store.onModuleInit();
    });
    afterEach(async () => {
      await store.onApplicationShutdown();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const exportsDir = () => join(dataDir, EXPORTS_FOLDER);
    const exported = () => (existsSync(exportsDir()) ? readdirSync(exportsDir()).sort() : []);
    const lines = (file: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Note);

    async function notes(count: number): Promise<Note[]> {
      const made: Note[] = [];
      for (let index = 0; index < count; index++) {
        made.push(
          await store.create(`note ${index}`, `body ${index}\nwith "quotes"`, [`t${index}`], 'ann'),
        );
      }
      return made;
    }

    it('writes every note, oldest first, page by page, with progress after each page', async () => {
      const made = await notes(5);
      made.push(await store.create('Straße', 'no author, no tags', []));
      const progress: [number, number][] = [];
      const signal = new AbortController().signal;
      const result = await exportNotes(
        store,
        dataDir,
        { signal, progress: (done, total) => progress.push([done, total]) },
        SMALL,
      );
      expect(progress).toEqual([
        [0, 6],
        [2, 6],
        [4, 6],
        [6, 6],
      ]);
      expect(lines(result.file)).toEqual(made);
      const bytes = readFileSync(result.file);
      expect(result).toMatchObject({ count: 6, bytes: bytes.length });
      expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(result.file.startsWith(exportsDir())).toBe(true);
      expect(exported()).toEqual([expect.stringMatching(/^notes-[0-9a-f-]{36}\.jsonl$/)]);
    });

    it('no notes: an empty file, and the one progress report 0/0', async () => {
      const progress: [number, number][] = [];
      const result = await exportNotes(store, dataDir, {
        signal: new AbortController().signal,
        progress: (done, total) => progress.push([done, total]),
      });
      expect(result).toMatchObject({ count: 0, bytes: 0 });
      expect(readFileSync(result.file, 'utf8')).toBe('');
      expect(progress).toEqual([[0, 0]]);
    });

    it('notes written while it runs are the next export’s', async () => {
      const made = await notes(3);
      let written = false;
      const writing: NotePages = {
        extent: () => store.extent(),
        pageAfter: async (after, last, limit) => {
          if (!written) {
            written = true;
            await store.create('late', 'written during the export', []);
          }
          return store.pageAfter(after, last, limit);
        },
      };
      const signal = new AbortController().signal;
      const result = await exportNotes(writing, dataDir, { signal, progress: () => {} }, SMALL);
      expect(lines(result.file)).toEqual(made);
    });

    it('stops between pages when its signal aborts, and deletes the partial file', async () => {
      await notes(5);
      const abort = new AbortController();
      const run = exportNotes(
        store,
        dataDir,
        {
          signal: abort.signal,
          progress: (done) => {
            if (done === 2) abort.abort(new Error('cancelled by tasks/cancel'));
          },
        },
        SMALL,
      );
      await expect(run).rejects.toThrow(
        new NotesExportError(
          'The export stopped (cancelled by tasks/cancel); its partial file was deleted',
        ),
      );
      expect(exported()).toEqual([]);
    });

    it('refuses more notes than it holds before writing anything', async () => {
      await notes(3);
      const run = exportNotes(
        store,
        dataDir,
        { signal: new AbortController().signal, progress: () => {} },
        { ...SMALL, maxNotes: 2 },
      );
      await expect(run).rejects.toThrow(
        'There are 3 notes; an export holds 2 at most, so nothing was exported',
      );
      expect(exported()).toEqual([]);
    });

    it('stops at its byte bound, and deletes what it wrote', async () => {
      await notes(5);
      const run = exportNotes(
        store,
        dataDir,
        { signal: new AbortController().signal, progress: () => {} },
        { ...SMALL, maxBytes: 300 },
      );
      await expect(run).rejects.toThrow(/more than 300 bytes .* nothing was exported$/);
      expect(exported()).toEqual([]);
    });

    it('keeps the newest exports only, and clears partial files a dead run left', async () => {
      await notes(1);
      const keep: ExportLimits = { ...SMALL, keep: 2 };
      const run = { signal: new AbortController().signal, progress: () => {} };
      const first = await exportNotes(store, dataDir, run, keep);
      const second = await exportNotes(store, dataDir, run, keep);
      // Older than the second by an hour, and a partial file left two hours ago.
      const hour = 60 * 60;
      const now = Date.now() / 1000;
      await utimes(first.file, now - hour, now - hour);
      const dead = join(exportsDir(), `notes-${randomUUID()}.jsonl.partial`);
      const running = join(exportsDir(), `notes-${randomUUID()}.jsonl.partial`);
      const other = join(exportsDir(), 'keep-me.txt');
      await Promise.all([dead, running, other].map((file) => writeFile(file, 'x')));
      await utimes(dead, now - 2 * hour, now - 2 * hour);
      const third = await exportNotes(store, dataDir, run, keep);
      const names = [second, third, { file: running }, { file: other }].map(({ file }) =>
        file.slice(exportsDir().length + 1),
      );
      expect(exported()).toEqual(names.sort());
    });
  });
}

exportContract('SQLite', async (dataDir) => ({ kind: 'sqlite', dataDir, announce: false }));

describeWithService(await findService(TEST_DATABASE_URL), 'the export on PostgreSQL', (url) => {
  const schemas: TestSchema[] = [];
  afterEach(async () => {
    for (const schema of schemas.splice(0)) await schema.drop();
  });
  exportContract('PostgreSQL', async (dataDir) => {
    const schema = await createTestSchema(url);
    schemas.push(schema);
    return { kind: 'postgres', url: schema.url, dataDir, announce: false };
  });
});
