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
import { McpError, McpResource, McpResourceTemplate, JsonRpcErrorCode } from '../../index.js';
import { NotesStore } from './notes.store.js';
import { NOTE_URI_TEMPLATE, NOTES_INDEX_URI } from './notes.uris.js';
/** The notes index and each note, as resources. */
let NotesResources = class NotesResources {
    constructor(store) {
        this.store = store;
    }
    index() {
        const entries = this.store.list().map(({ id, title, tags }) => ({ id, title, tags }));
        return JSON.stringify(entries);
    }
    note(uri, { id }) {
        const note = this.store.get(id);
        // An unknown id is an unknown resource, not an empty one.
        if (!note)
            throw new McpError(JsonRpcErrorCode.ResourceNotFound, 'Resource not found', { uri });
        return renderNote(note);
    }
    /** Completes the template's `id` variable. */
    completeId(prefix) {
        return this.store.idsStartingWith(prefix);
    }
};
__decorate([
    McpResource({
        uri: NOTES_INDEX_URI,
        name: 'notes_index',
        title: 'Notes index',
        description: 'Every note: id, title and tags.',
        mimeType: 'application/json',
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", String)
], NotesResources.prototype, "index", null);
__decorate([
    McpResourceTemplate({
        uriTemplate: NOTE_URI_TEMPLATE,
        name: 'note',
        title: 'A note',
        description: 'One note, as Markdown.',
        mimeType: 'text/markdown',
        complete: { id: 'completeId' },
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", String)
], NotesResources.prototype, "note", null);
NotesResources = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [NotesStore])
], NotesResources);
export { NotesResources };
export function renderNote(note) {
    const tags = note.tags.length > 0 ? `\n\nTags: ${note.tags.join(', ')}` : '';
    return `# ${note.title}\n\n${note.body}${tags}\n`;
}
//# sourceMappingURL=notes.resources.js.map