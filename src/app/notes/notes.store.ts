import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NOTES_DATA_DIR } from '../app.constants.js';
import type { Note } from './note.interface.js';

/**
 * The notes, kept in memory and persisted as one JSON file under the data
 * directory. Writes go to a temporary file renamed over the old one, so a
 * crash never leaves a half-written store.
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
    try {
      const saved = JSON.parse(await readFile(this.file, 'utf8')) as Note[];
      this.notes = new Map(saved.map((note) => [note.id, note]));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
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
    this.writing = this.writing.then(async () => {
      const temp = `${this.file}.${process.pid}.tmp`;
      await writeFile(temp, snapshot, 'utf8');
      await rename(temp, this.file);
    });
    return this.writing;
  }
}
