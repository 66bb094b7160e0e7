import { Injectable } from '@nestjs/common';
import { McpInvalidParamsError, McpPrompt, type PromptMessage } from '../../index.js';
import { NotesStore } from './notes.store.js';
import { renderNote } from './notes.resources.js';

/** Prompts over the notes. */
@Injectable()
export class NotesPrompts {
  constructor(private readonly store: NotesStore) {}

  @McpPrompt({
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
  })
  async summarize({ id }: Record<string, string>): Promise<PromptMessage[]> {
    const note = await this.store.get(id);
    if (!note) throw new McpInvalidParamsError(`No note with id ${id}`);
    const text = `Summarise this note in three bullet points.\n\n${renderNote(note)}`;
    return [{ role: 'user', content: { type: 'text', text } }];
  }

  /** Completes the prompt's `id` argument. */
  completeId(prefix: string): Promise<string[]> {
    return this.store.idsStartingWith(prefix);
  }
}
