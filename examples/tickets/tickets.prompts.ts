import { Injectable } from '@nestjs/common';
import { McpInvalidParamsError, McpPrompt, type PromptMessage } from '../../src/index.js';
import { renderTicket } from './tickets.resources.js';
import { TicketsStore } from './tickets.store.js';

/** Prompts over the tickets. */
@Injectable()
export class TicketsPrompts {
  constructor(private readonly store: TicketsStore) {}

  @McpPrompt({
    name: 'triage_ticket',
    description: 'Ask the model to triage one ticket.',
    arguments: [{ name: 'id', description: 'The ticket', required: true, complete: 'completeId' }],
  })
  triage({ id }: Record<string, string>): PromptMessage[] {
    const ticket = this.store.get(id);
    if (!ticket) throw new McpInvalidParamsError(`No ticket ${id}`);
    const text = `Triage this ticket: severity, owner team, next step.\n\n${renderTicket(ticket)}`;
    return [{ role: 'user', content: { type: 'text', text } }];
  }

  completeId(prefix: string): string[] {
    return this.store.idsStartingWith(prefix);
  }
}
