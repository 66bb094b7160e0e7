import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { NOTES_DATA_DIR } from '../app.constants.js';
import type { Note } from './note.interface.js';

/**
 * The notes, kept in memory and persisted as one JSON file under the data
 * directory. Writes go to a temporary file, flushed to disk (fsync), renamed
 * over the old one, and the directory flushed too, so neither a crash nor a
 * power cut leaves a half-written or vanished store; temporary files a killed
 * process left behind are removed at start.
 */
@Injectable()
export class NotesStore implements OnModuleInit {
  private notes = new Map<string, Note>();
  private readonly file: string;
  private writing = Promise.resolve();

  constructor(@Inject(NOTES_DATA_DIR) private readonly dataDir: string) {
    this.file = join(dataDir, 'notes.json');
  }

  async onModuleInit(): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    await this.removeOrphans();
    try {
      const saved = JSON.parse(await readFile(this.file, 'utf8')) as Note[];
      this.notes = new Map(saved.map((note) => [note.id, note]));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Resolves when the store can be written (the data directory is there and writable). */
  async ping(): Promise<void> {
    await access(this.dataDir, constants.W_OK);
  }

  list(): Note[] {
    return [...this.notes.values()];
  }

  get(id: string): Note | undefined {
    return this.notes.get(id);
  }

  /** Ids beginning with `prefix` (for completion). */
  idsStartingWith(prefix: string): string[] {
    return [...this.notes.keys()].filter((id) => id.startsWith(prefix));
  }

  /** Notes whose title, body or tags contain `query` (case-insensitive). */
  search(query: string, limit: number): Note[] {
    const needle = query.toLowerCase();
    return this.list()
      .filter((note) =>
        [note.title, note.body, ...note.tags].some((text) => text.toLowerCase().includes(needle)),
      )
      .slice(0, limit);
  }

  async create(title: string, body: string, tags: string[], author?: string): Promise<Note> {
    const note: Note = {
      id: randomUUID().slice(0, 8),
      title,
      body,
      tags,
      createdAt: new Date().toISOString(),
    };
    if (author !== undefined) note.author = author;
    this.notes.set(note.id, note);
    await this.persist();
    return note;
  }

  /** Adds `tag` to note `id` (once); returns the note. */
  async addTag(id: string, tag: string): Promise<Note | undefined> {
    const note = this.notes.get(id);
    if (!note) return undefined;
    if (!note.tags.includes(tag)) note.tags = [...note.tags, tag];
    await this.persist();
    return note;
  }

  async delete(id: string): Promise<boolean> {
    const removed = this.notes.delete(id);
    if (removed) await this.persist();
    return removed;
  }

  /* Serialised so two concurrent writes cannot interleave their renames. */
  private persist(): Promise<void> {
    const snapshot = JSON.stringify(this.list(), null, 2);
    // One failed write must not fail every later one: each waits for the last, whatever became of it.
    const write = this.writing.catch(() => undefined).then(() => this.writeDurably(snapshot));
    this.writing = write;
    return write;
  }

  private async writeDurably(snapshot: string): Promise<void> {
    const temp = `${this.file}.${process.pid}.tmp`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(snapshot, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.file);
    const directory = await open(this.dataDir, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }

  /* `notes.json.<pid>.tmp` files of processes that died mid-write (a live one's is left alone). */
  private async removeOrphans(): Promise<void> {
    for (const name of await readdir(this.dataDir)) {
      const pid = /^notes\.json\.(\d+)\.tmp$/.exec(name)?.[1];
      if (pid !== undefined && !isAlive(Number(pid))) {
        await rm(join(this.dataDir, name), { force: true });
      }
    }
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false; // ours from an earlier life of this pid: stale
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
