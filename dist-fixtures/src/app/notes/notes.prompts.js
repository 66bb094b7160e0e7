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
import { JsonRpcErrorCode, McpError, McpPrompt } from '../../index.js';
import { NotesStore } from './notes.store.js';
import { renderNote } from './notes.resources.js';
/** Prompts over the notes. */
let NotesPrompts = class NotesPrompts {
    constructor(store) {
        this.store = store;
    }
    summarize({ id }) {
        const note = this.store.get(id);
        if (!note)
            throw new McpError(JsonRpcErrorCode.InvalidParams, `No note with id ${id}`);
        const text = `Summarise this note in three bullet points.\n\n${renderNote(note)}`;
        return [{ role: 'user', content: { type: 'text', text } }];
    }
    /** Completes the prompt's `id` argument. */
    completeId(prefix) {
        return this.store.idsStartingWith(prefix);
    }
};
__decorate([
    McpPrompt({
        name: 'summarize_note',
        title: 'Summarise a note',
        description: 'Ask the model for a short summary of one note.',
        arguments: [
            {
                name: 'id',
                description: 'The note to summarise',
                required: true,
                complete: 'completeId',
            },
        ],
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Array)
], NotesPrompts.prototype, "summarize", null);
NotesPrompts = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [NotesStore])
], NotesPrompts);
export { NotesPrompts };
//# sourceMappingURL=notes.prompts.js.map