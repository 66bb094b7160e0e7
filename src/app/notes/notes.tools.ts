import { Injectable } from '@nestjs/common';
import { McpServer, McpTool, McpToolError, type McpToolContext } from '../../index.js';
import { CreateNoteDto } from './dto/create-note.dto.js';
import { DeleteNoteDto } from './dto/delete-note.dto.js';
import { SearchNotesDto } from './dto/search-notes.dto.js';
import { NotesStore } from './notes.store.js';
import { NOTES_INDEX_URI, noteUri } from './notes.uris.js';

/** The notes tools: search (read-only), create, and delete (destructive, asks first). */
@Injectable()
export class NotesTools {
  constructor(
    private readonly store: NotesStore,
    private readonly server: McpServer,
  ) {}

  @McpTool({
    name: 'search_notes',
    description: 'Search the team notes by text in titles, bodies and tags.',
    input: SearchNotesDto,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  search({ query, limit = 10 }: SearchNotesDto) {
    const notes = this.store.search(query, limit);
    return { count: notes.length, notes };
  }

  @McpTool({
    name: 'create_note',
    description: 'Create a team note with a title, a body and optional tags.',
    input: CreateNoteDto,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  })
  async create({ title, body, tags = [] }: CreateNoteDto, ctx: McpToolContext) {
    const note = await this.store.create(title, body, tags);
    ctx.log('info', { event: 'note_created', id: note.id }, 'notes');
    this.server.notify('notifications/resources/updated', { uri: NOTES_INDEX_URI });
    return note;
  }

  @McpTool({
    name: 'delete_note',
    description: 'Delete a team note by id. Needs the approval of a human.',
    input: DeleteNoteDto,
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    completions: { id: 'completeId' },
  })
  async delete({ id }: DeleteNoteDto) {
    if (!(await this.store.delete(id))) throw new McpToolError(`No note with id ${id}`);
    this.server.notify('notifications/resources/updated', { uri: NOTES_INDEX_URI });
    this.server.notify('notifications/resources/updated', { uri: noteUri(id) });
    return `Deleted note ${id}`;
  }

  /** Completes `delete_note`'s `id` argument. */
  completeId(prefix: string): string[] {
    return this.store.idsStartingWith(prefix);
  }
}
