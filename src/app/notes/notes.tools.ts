import { Injectable } from '@nestjs/common';
import { McpWarden, McpTool, McpToolError, type McpToolContext } from '../../index.js';
import { NoteKeyReusedError } from '../database/note-keys.js';
import { CreateNoteDto } from './dto/create-note.dto.js';
import { NoteIdDto } from './dto/note-id.dto.js';
import { SearchNotesDto } from './dto/search-notes.dto.js';
import { TagNoteDto } from './dto/tag-note.dto.js';
import { exportNotes, NotesExportError } from './notes.export.js';
import { NotesStore } from './notes.store.js';
import { NoteTextError } from './note-text.js';
import { NOTES_INDEX_URI, noteUri } from './notes.uris.js';

/**
 * The notes tools: search (read-only), create, delete (destructive, asks first), and a
 * long-running export (a task when the client takes one).
 */
@Injectable()
export class NotesTools {
  constructor(
    private readonly store: NotesStore,
    private readonly server: McpWarden,
  ) {}

  @McpTool({
    name: 'search_notes',
    description: 'Search the team notes by text in titles, bodies and tags.',
    inputSchema: SearchNotesDto,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  async search({ query, limit = 10 }: SearchNotesDto) {
    const notes = await this.store.search(query, limit);
    return { count: notes.length, notes };
  }

  @McpTool({
    name: 'create_note',
    description:
      'Create a team note with a title, a body and optional tags. To retry a call whose outcome ' +
      'is unknown without making a second note, send the same idempotencyKey as the first call.',
    inputSchema: CreateNoteDto,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  })
  async create({ title, body, tags = [], idempotencyKey }: CreateNoteDto, ctx: McpToolContext) {
    const author = ctx.principal?.subject;
    const write =
      idempotencyKey === undefined
        ? this.store
            .create(title, body, tags, author)
            .then((made) => ({ note: made, replayed: false }))
        : this.store.createOnce(idempotencyKey, title, body, tags, author);
    const { note, replayed } = await write.catch(refused);
    // A retry answered with the first call's note: nothing new to announce.
    if (replayed) return note;
    ctx.log('info', { event: 'note_created', id: note.id }, 'notes');
    this.server.notify('notifications/resources/updated', { uri: NOTES_INDEX_URI });
    return note;
  }

  @McpTool({
    name: 'delete_note',
    description: 'Delete a team note by id. Needs the approval of a human.',
    inputSchema: NoteIdDto,
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    completions: { id: 'completeId' },
  })
  async delete({ id }: NoteIdDto) {
    if (!(await this.store.delete(id))) throw new McpToolError(`No note with id ${id}`);
    this.server.notify('notifications/resources/updated', { uri: NOTES_INDEX_URI });
    this.server.notify('notifications/resources/updated', { uri: noteUri(id) });
    return `Deleted note ${id}`;
  }

  @McpTool({
    name: 'tag_note',
    description: 'Add a tag to a note. Without a tag, the user is asked for one.',
    inputSchema: TagNoteDto,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    completions: { id: 'completeId' },
  })
  async tag({ id, tag }: TagNoteDto, ctx: McpToolContext) {
    if (!(await this.store.get(id))) throw new McpToolError(`No note with id ${id}`);
    const chosen = tag ?? (await this.askForTag(id, ctx));
    if (chosen === undefined) return `Note ${id} left unchanged`;
    const note = await this.store.addTag(id, chosen).catch(refused);
    this.server.notify('notifications/resources/updated', { uri: noteUri(id) });
    return note;
  }

  @McpTool({
    name: 'suggest_title',
    description: "Ask the client's model to suggest a better title for a note.",
    inputSchema: NoteIdDto,
    annotations: { readOnlyHint: true, openWorldHint: false },
    completions: { id: 'completeId' },
  })
  async suggestTitle({ id }: NoteIdDto, ctx: McpToolContext) {
    const note = await this.store.get(id);
    if (!note) throw new McpToolError(`No note with id ${id}`);
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

  /*
   * Where the export goes: a new JSON Lines file under the data directory, written page by page,
   * and the answer says where it is, how many notes it holds, its size and its SHA-256. Memory
   * holds one page however many notes there are, and the task's result (which the task store
   * keeps for the task's TTL) stays a few fields. The notes themselves in the result would weigh
   * on the task store and on the model's context; a resource `notes://exports/{id}` would
   * resolve only on the instance that wrote the file. The file is for whoever shares the
   * service's disk: the user of a stdio or loopback service, or an operator.
   *
   * Which notes: every note, as `search_notes` and `notes://index` see them, since every caller
   * may read every note (docs/notes-service.md, "Policy"). Should reads ever be scoped per
   * caller, the export must take the same scope.
   *
   * `readOnlyHint: true`: no note changes, and the notes are what a client weighs when it asks
   * whether a call changes anything. Strictly, it does write: its own output, a new file under
   * the service's data directory that no tool reads, and it deletes exports past the newest ten
   * (the folder's bound), never a note. Calling that destructive would have clients ask before
   * every export, so no `destructiveHint`. Not idempotent: each call writes a new file.
   */
  @McpTool({
    name: 'export_notes',
    description:
      "Export every note as JSON Lines (one note per line) into a new file in the service's data " +
      "directory; answers the file's path, its note count, size and SHA-256. It may take a " +
      'while: a client that supports tasks gets a task to poll.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    task: 'optional',
  })
  async exportAll(_args: object, ctx: McpToolContext) {
    const made = await exportNotes(this.store, this.store.dataDir, {
      signal: ctx.signal,
      progress: (done, total) => ctx.progress(done, total, 'exported'),
    }).catch((error: unknown) => {
      if (error instanceof NotesExportError) throw new McpToolError(error.message);
      throw error;
    });
    ctx.log('info', { event: 'notes_exported', count: made.count }, 'notes');
    return made;
  }

  /* Collects the missing field from the user (form-mode elicitation). */
  private async askForTag(id: string, ctx: McpToolContext): Promise<string | undefined> {
    const answer = await ctx.elicit(`Which tag should note ${id} get?`, {
      type: 'object',
      properties: { tag: { type: 'string', title: 'Tag', minLength: 1, maxLength: 50 } },
      required: ['tag'],
    });
    const tag = answer.action === 'accept' ? answer.content?.tag : undefined;
    return typeof tag === 'string' && tag.trim() !== '' ? tag.trim() : undefined;
  }

  /** Completes `delete_note`'s `id` argument. */
  completeId(prefix: string): Promise<string[]> {
    return this.store.idsStartingWith(prefix);
  }
}

/* Text the store cannot keep, a reused key: the caller's to fix, so say why (anything else stays an internal error). */
function refused(error: unknown): never {
  if (error instanceof NoteTextError || error instanceof NoteKeyReusedError) {
    throw new McpToolError(error.message);
  }
  throw error;
}
