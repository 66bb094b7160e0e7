var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NOTES_DATA_DIR } from '../app.constants.js';
/**
 * The notes, kept in memory and persisted as one JSON file under the data
 * directory. Writes go to a temporary file renamed over the old one, so a
 * crash never leaves a half-written store.
 */
let NotesStore = class NotesStore {
    constructor(dataDir) {
        this.dataDir = dataDir;
        this.notes = new Map();
        this.writing = Promise.resolve();
        this.file = join(dataDir, 'notes.json');
    }
    async onModuleInit() {
        await mkdir(this.dataDir, { recursive: true });
        try {
            const saved = JSON.parse(await readFile(this.file, 'utf8'));
            this.notes = new Map(saved.map((note) => [note.id, note]));
        }
        catch (error) {
            if (error.code !== 'ENOENT')
                throw error;
        }
    }
    list() {
        return [...this.notes.values()];
    }
    get(id) {
        return this.notes.get(id);
    }
    /** Ids beginning with `prefix` (for completion). */
    idsStartingWith(prefix) {
        return [...this.notes.keys()].filter((id) => id.startsWith(prefix));
    }
    /** Notes whose title, body or tags contain `query` (case-insensitive). */
    search(query, limit) {
        const needle = query.toLowerCase();
        return this.list()
            .filter((note) => [note.title, note.body, ...note.tags].some((text) => text.toLowerCase().includes(needle)))
            .slice(0, limit);
    }
    async create(title, body, tags) {
        const note = {
            id: randomUUID().slice(0, 8),
            title,
            body,
            tags,
            createdAt: new Date().toISOString(),
        };
        this.notes.set(note.id, note);
        await this.persist();
        return note;
    }
    /** Adds `tag` to note `id` (once); returns the note. */
    async addTag(id, tag) {
        const note = this.notes.get(id);
        if (!note)
            return undefined;
        if (!note.tags.includes(tag))
            note.tags = [...note.tags, tag];
        await this.persist();
        return note;
    }
    async delete(id) {
        const removed = this.notes.delete(id);
        if (removed)
            await this.persist();
        return removed;
    }
    /* Serialised so two concurrent writes cannot interleave their renames. */
    persist() {
        const snapshot = JSON.stringify(this.list(), null, 2);
        this.writing = this.writing.then(async () => {
            const temp = `${this.file}.${process.pid}.tmp`;
            await writeFile(temp, snapshot, 'utf8');
            await rename(temp, this.file);
        });
        return this.writing;
    }
};
NotesStore = __decorate([
    Injectable(),
    __param(0, Inject(NOTES_DATA_DIR)),
    __metadata("design:paramtypes", [String])
], NotesStore);
export { NotesStore };
//# sourceMappingURL=notes.store.js.map