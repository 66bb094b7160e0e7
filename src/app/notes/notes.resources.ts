import { Injectable } from '@nestjs/common';
import { McpResource, McpResourceNotFoundError, McpResourceTemplate } from '../../index.js';
import type { Note } from './note.interface.js';
import { NotesStore } from './notes.store.js';
import { NOTE_URI_TEMPLATE, NOTES_INDEX_URI } from './notes.uris.js';

/** The notes index and each note, as resources. */
@Injectable()
export class NotesResources {
  constructor(private readonly store: NotesStore) {}

  @McpResource({
    uri: NOTES_INDEX_URI,
    name: 'notes_index',
    title: 'Notes index',
    description: 'Every note: id, title and tags.',
    mimeType: 'application/json',
  })
  async index(): Promise<string> {
    const entries = (await this.store.list()).map(({ id, title, tags }) => ({ id, title, tags }));
    return JSON.stringify(entries);
  }

  @McpResourceTemplate({
    uriTemplate: NOTE_URI_TEMPLATE,
    name: 'note',
    title: 'A note',
    description: 'One note, as Markdown.',
    mimeType: 'text/markdown',
    completions: { id: 'completeId' },
  })
  async note(uri: string, { id }: Record<string, string>): Promise<string> {
    const note = await this.store.get(id);
    // An unknown id is an unknown resource, not an empty one.
    if (!note) throw new McpResourceNotFoundError(uri);
    return renderNote(note);
  }

  /** Completes the template's `id` variable. */
  completeId(prefix: string): Promise<string[]> {
    return this.store.idsStartingWith(prefix);
  }
}

export function renderNote(note: Note): string {
  const tags = note.tags.length > 0 ? `\n\nTags: ${note.tags.join(', ')}` : '';
  return `# ${note.title}\n\n${note.body}${tags}\n`;
}
