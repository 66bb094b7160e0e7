var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { McpServer, McpTool, McpToolError } from '../../index.js';
import { CreateNoteDto } from './dto/create-note.dto.js';
import { NoteIdDto } from './dto/note-id.dto.js';
import { SearchNotesDto } from './dto/search-notes.dto.js';
import { TagNoteDto } from './dto/tag-note.dto.js';
import { NotesStore } from './notes.store.js';
import { NOTES_INDEX_URI, noteUri } from './notes.uris.js';
/** The notes tools: search (read-only), create, and delete (destructive, asks first). */
let NotesTools = class NotesTools {
    constructor(store, server) {
        this.store = store;
        this.server = server;
    }
    search({ query, limit = 10 }) {
        const notes = this.store.search(query, limit);
        return { count: notes.length, notes };
    }
    async create({ title, body, tags = [] }, ctx) {
        const note = await this.store.create(title, body, tags);
        ctx.log('info', { event: 'note_created', id: note.id }, 'notes');
        this.server.notify('notifications/resources/updated', { uri: NOTES_INDEX_URI });
        return note;
    }
    async delete({ id }) {
        if (!(await this.store.delete(id)))
            throw new McpToolError(`No note with id ${id}`);
        this.server.notify('notifications/resources/updated', { uri: NOTES_INDEX_URI });
        this.server.notify('notifications/resources/updated', { uri: noteUri(id) });
        return `Deleted note ${id}`;
    }
    async tag({ id, tag }, ctx) {
        if (!this.store.get(id))
            throw new McpToolError(`No note with id ${id}`);
        const chosen = tag ?? (await this.askForTag(id, ctx));
        if (chosen === undefined)
            return `Note ${id} left unchanged`;
        const note = await this.store.addTag(id, chosen);
        this.server.notify('notifications/resources/updated', { uri: noteUri(id) });
        return note;
    }
    async suggestTitle({ id }, ctx) {
        const note = this.store.get(id);
        if (!note)
            throw new McpToolError(`No note with id ${id}`);
        const answer = await ctx.sample({
            messages: [
                {
                    role: 'user',
                    content: { type: 'text', text: `Suggest a short title for this note:\n\n${note.body}` },
                },
            ],
            maxTokens: 60,
        });
        const text = answer.content.type === 'text' ? answer.content.text.trim() : '';
        return { id, current: note.title, suggested: text };
    }
    /* Collects the missing field from the user (form-mode elicitation). */
    async askForTag(id, ctx) {
        const answer = await ctx.elicit(`Which tag should note ${id} get?`, {
            type: 'object',
            properties: { tag: { type: 'string', title: 'Tag', minLength: 1, maxLength: 50 } },
            required: ['tag'],
        });
        const tag = answer.action === 'accept' ? answer.content?.tag : undefined;
        return typeof tag === 'string' && tag.trim() !== '' ? tag.trim() : undefined;
    }
    /** Completes `delete_note`'s `id` argument. */
    completeId(prefix) {
        return this.store.idsStartingWith(prefix);
    }
};
__decorate([
    McpTool({
        name: 'search_notes',
        description: 'Search the team notes by text in titles, bodies and tags.',
        input: SearchNotesDto,
        annotations: { readOnlyHint: true, openWorldHint: false },
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [SearchNotesDto]),
    __metadata("design:returntype", void 0)
], NotesTools.prototype, "search", null);
__decorate([
    McpTool({
        name: 'create_note',
        description: 'Create a team note with a title, a body and optional tags.',
        input: CreateNoteDto,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [CreateNoteDto, Object]),
    __metadata("design:returntype", Promise)
], NotesTools.prototype, "create", null);
__decorate([
    McpTool({
        name: 'delete_note',
        description: 'Delete a team note by id. Needs the approval of a human.',
        input: NoteIdDto,
        annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
        completions: { id: 'completeId' },
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [NoteIdDto]),
    __metadata("design:returntype", Promise)
], NotesTools.prototype, "delete", null);
__decorate([
    McpTool({
        name: 'tag_note',
        description: 'Add a tag to a note. Without a tag, the user is asked for one.',
        input: TagNoteDto,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
        completions: { id: 'completeId' },
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [TagNoteDto, Object]),
    __metadata("design:returntype", Promise)
], NotesTools.prototype, "tag", null);
__decorate([
    McpTool({
        name: 'suggest_title',
        description: "Ask the client's model to suggest a better title for a note.",
        input: NoteIdDto,
        annotations: { readOnlyHint: true, openWorldHint: false },
        completions: { id: 'completeId' },
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [NoteIdDto, Object]),
    __metadata("design:returntype", Promise)
], NotesTools.prototype, "suggestTitle", null);
NotesTools = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [NotesStore,
        McpServer])
], NotesTools);
export { NotesTools };
//# sourceMappingURL=notes.tools.js.map