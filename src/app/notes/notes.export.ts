import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Note } from './note.interface.js';

/** The folder of `export_notes`' files, under the data directory. */
export const EXPORTS_FOLDER = 'exports';

/** How an export reads the notes, and what it may hold. */
export interface ExportLimits {
  /** Notes read per query: one page, then one progress report. */
  readonly pageSize: number;
  /** More notes than this are refused, before anything is written. */
  readonly maxNotes: number;
  /** An export that would grow past this many bytes stops, and its file is deleted. */
  readonly maxBytes: number;
  /** Finished exports the folder keeps, this one included: older ones are deleted first. */
  readonly keep: number;
}

/** The service's bounds: 10,000 notes, 16 MiB, the 10 newest exports (160 MiB of disk at most). */
export const EXPORT_LIMITS: ExportLimits = {
  pageSize: 100,
  maxNotes: 10_000,
  maxBytes: 16 * 1024 * 1024,
  keep: 10,
};

/** What an export reads from the notes store (`NotesStore`). */
export interface NotePages {
  extent(): Promise<{ count: number; lastSeq: number }>;
  pageAfter(
    afterSeq: number,
    lastSeq: number,
    limit: number,
  ): Promise<{ notes: Note[]; next: number }>;
}

/** The run an export reports to and stops for (the tool's `ctx`). */
export interface ExportRun {
  readonly signal: AbortSignal;
  progress(done: number, total: number): void;
}

/** A finished export: where it is and what it holds, so a reader can check it is whole. */
export interface NotesExport {
  /** The JSON Lines file: one note (`Note`, as `search_notes` answers it) per line. */
  file: string;
  count: number;
  bytes: number;
  /** Of the file's bytes, hex. */
  sha256: string;
}

/** An export refused by its bounds, or stopped: said to the caller as a tool error. */
export class NotesExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotesExportError';
  }
}

/* Finished exports, and those still being written (renamed once whole). */
const FINISHED = /^notes-[0-9a-f-]{36}\.jsonl$/;
const PARTIAL = /^notes-[0-9a-f-]{36}\.jsonl\.partial$/;
/* A partial file untouched this long was left by a run that died with its process. */
const STALE_PARTIAL_MS = 60 * 60 * 1000;

/**
 * Writes every note written up to now into a new JSON Lines file under `dataDir/exports/`, page
 * by page (memory holds one page, whatever the number of notes), reporting progress after each
 * page and stopping between pages when `run.signal` aborts. The file is written as
 * `<name>.partial` and renamed once whole, so a file named `.jsonl` is always complete; a stopped
 * or failed export deletes its partial file. Notes written while it runs are not in it; one
 * deleted while it runs may be missing.
 */
export async function exportNotes(
  store: NotePages,
  dataDir: string,
  run: ExportRun,
  limits: ExportLimits = EXPORT_LIMITS,
): Promise<NotesExport> {
  const { count: total, lastSeq } = await store.extent();
  if (total > limits.maxNotes) throw tooMany(total, limits);
  const dir = join(dataDir, EXPORTS_FOLDER);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await prune(dir, limits.keep - 1);
  const file = join(dir, `notes-${randomUUID()}.jsonl`);
  const partial = `${file}.partial`;
  const hash = createHash('sha256');
  let count = 0;
  let bytes = 0;
  let whole = false;
  const handle = await open(partial, 'wx', 0o600);
  try {
    run.progress(0, total);
    for (let after = 0; ;) {
      stopIfAborted(run.signal);
      const page = await store.pageAfter(after, lastSeq, limits.pageSize);
      if (page.notes.length === 0) break;
      // A note that committed late (PostgreSQL hands out seq before commit) may add to the count.
      if (count + page.notes.length > limits.maxNotes) {
        throw tooMany(count + page.notes.length, limits);
      }
      const chunk = Buffer.from(page.notes.map((note) => `${JSON.stringify(note)}\n`).join(''));
      if (bytes + chunk.length > limits.maxBytes) {
        throw new NotesExportError(
          `The notes take more than ${limits.maxBytes} bytes as JSON Lines, ` +
            'the most an export holds; nothing was exported',
        );
      }
      await handle.write(chunk);
      hash.update(chunk);
      bytes += chunk.length;
      count += page.notes.length;
      after = page.next;
      run.progress(count, Math.max(total, count));
      if (page.notes.length < limits.pageSize) break;
    }
    stopIfAborted(run.signal);
    await handle.sync();
    whole = true;
  } finally {
    await handle.close();
    if (!whole) await rm(partial, { force: true });
  }
  await rename(partial, file);
  return { file, count, bytes, sha256: hash.digest('hex') };
}

function tooMany(count: number, limits: ExportLimits): NotesExportError {
  return new NotesExportError(
    `There are ${count} notes; an export holds ${limits.maxNotes} at most, so nothing was exported`,
  );
}

/* Cancelled (`tasks/cancel`, `notifications/cancelled`), or out of time: stop here. */
function stopIfAborted(signal: AbortSignal): void {
  if (!signal.aborted) return;
  const reason: unknown = signal.reason;
  const why = reason instanceof Error ? reason.message : String(reason);
  throw new NotesExportError(`The export stopped (${why}); its partial file was deleted`);
}

/*
 * Deletes all but the `keep` newest finished exports, and partial files a dead run left: the
 * folder's size stays bounded however often the tool is called. A file another instance (on a
 * shared data directory) deletes meanwhile is simply gone.
 */
async function prune(dir: string, keep: number): Promise<void> {
  const now = Date.now();
  const files = await Promise.all(
    (await readdir(dir)).map(async (name) => {
      const path = join(dir, name);
      const stats = await stat(path).catch(() => undefined);
      return { name, path, modified: stats?.mtimeMs ?? now };
    }),
  );
  const finished = files
    .filter(({ name }) => FINISHED.test(name))
    .sort((a, b) => b.modified - a.modified);
  const stale = files.filter(
    ({ name, modified }) => PARTIAL.test(name) && now - modified > STALE_PARTIAL_MS,
  );
  await Promise.all(
    [...finished.slice(Math.max(keep, 0)), ...stale].map(({ path }) => rm(path, { force: true })),
  );
}
