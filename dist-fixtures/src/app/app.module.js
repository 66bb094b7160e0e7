var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var AppModule_1;
import { Module } from '@nestjs/common';
import { McpModule } from '../index.js';
import { DEFAULT_DATA_DIR, NOTES_DATA_DIR } from './app.constants.js';
import { AuditLogService } from './audit/audit-log.service.js';
import { NotesPrompts } from './notes/notes.prompts.js';
import { NotesResources } from './notes/notes.resources.js';
import { NotesStore } from './notes/notes.store.js';
import { NotesTools } from './notes/notes.tools.js';
import { notesReadPolicy } from './policy/notes-read.policy.js';
import { notesToolPolicy } from './policy/notes-tool.policy.js';
/** The team-notes MCP service, wired with an explicit policy on both seams. */
let AppModule = AppModule_1 = class AppModule {
    static forTransport(transport) {
        return {
            module: AppModule_1,
            imports: [
                McpModule.forRoot({
                    name: 'mcp-warden-notes',
                    version: '0.1.0',
                    instructions: 'Team notes: search, create and (with approval) delete notes.',
                    transport,
                    authorizer: notesToolPolicy,
                    authorizerSource: 'configured',
                    readAuthorizer: notesReadPolicy,
                }),
            ],
            providers: [
                { provide: NOTES_DATA_DIR, useValue: process.env.DATA_DIR || DEFAULT_DATA_DIR },
                NotesStore,
                NotesTools,
                NotesResources,
                NotesPrompts,
                AuditLogService,
            ],
        };
    }
};
AppModule = AppModule_1 = __decorate([
    Module({})
], AppModule);
export { AppModule };
//# sourceMappingURL=app.module.js.map