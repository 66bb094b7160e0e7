import { Injectable } from '@nestjs/common';
import { McpResource, McpResourceNotFoundError, McpResourceTemplate } from '../../src/index.js';
import type { Ticket } from './ticket.interface.js';
import { TicketsStore } from './tickets.store.js';
import { OPEN_TICKETS_URI, TICKET_URI_TEMPLATE } from './tickets.uris.js';

/** The open tickets and each ticket, as resources. */
@Injectable()
export class TicketsResources {
  constructor(private readonly store: TicketsStore) {}

  @McpResource({
    uri: OPEN_TICKETS_URI,
    name: 'open_tickets',
    description: 'Every open ticket: id and title.',
    mimeType: 'application/json',
  })
  openTickets(): string {
    return JSON.stringify(this.store.list('open').map(({ id, title }) => ({ id, title })));
  }

  @McpResourceTemplate({
    uriTemplate: TICKET_URI_TEMPLATE,
    name: 'ticket',
    description: 'One ticket, as Markdown.',
    mimeType: 'text/markdown',
    completions: { id: 'completeId' },
  })
  ticket(uri: string, { id }: Record<string, string>): string {
    const ticket = this.store.get(id);
    if (!ticket) throw new McpResourceNotFoundError(uri); // -32002, like any unknown URI
    return renderTicket(ticket);
  }

  completeId(prefix: string): string[] {
    return this.store.idsStartingWith(prefix);
  }
}

export function renderTicket(ticket: Ticket): string {
  return `# ${ticket.id}: ${ticket.title}\n\nStatus: ${ticket.status}\n\n${ticket.body}\n`;
}
