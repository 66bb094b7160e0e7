import { Injectable } from '@nestjs/common';
import { McpTool, McpToolError, McpWarden, type McpToolContext } from '../../src/index.js';
import { FindTicketsDto } from './dto/find-tickets.dto.js';
import { OpenTicketDto } from './dto/open-ticket.dto.js';
import { TicketsStore } from './tickets.store.js';
import { OPEN_TICKETS_URI, ticketUri } from './tickets.uris.js';

/** The tickets tools: two DTO tools, a JSON Schema tool that asks first, and one the policy denies. */
@Injectable()
export class TicketsTools {
  constructor(
    private readonly store: TicketsStore,
    private readonly warden: McpWarden,
  ) {}

  // A DTO tool: arguments are validated and arrive as a FindTicketsDto.
  @McpTool({
    name: 'find_tickets',
    description: 'Find tickets by text and status.',
    inputSchema: FindTicketsDto,
    annotations: { readOnlyHint: true },
  })
  find({ text = '', status, limit = 10 }: FindTicketsDto) {
    const needle = text.toLowerCase();
    const tickets = this.store
      .list(status)
      .filter((ticket) => `${ticket.title}\n${ticket.body}`.toLowerCase().includes(needle))
      .slice(0, limit);
    // A plain object: sent as structuredContent plus its JSON text.
    return { count: tickets.length, tickets };
  }

  @McpTool({
    name: 'open_ticket',
    description: 'Open a ticket with a title and an optional body.',
    inputSchema: OpenTicketDto,
  })
  open({ title, body }: OpenTicketDto, ctx: McpToolContext) {
    const ticket = this.store.open(title, body);
    ctx.log('info', { event: 'ticket_opened', id: ticket.id, by: ctx.principal?.subject });
    this.warden.notify('notifications/resources/updated', { uri: OPEN_TICKETS_URI });
    return ticket;
  }

  // A JSON Schema tool: the schema is listed verbatim and checked before the method runs.
  // Destructive, so the app refuses to boot without a tool authorizer.
  @McpTool({
    name: 'close_ticket',
    description: 'Close a ticket by id.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^T-[0-9]+$' } },
      required: ['id'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { id: { type: 'string' }, status: { const: 'closed' } },
      required: ['id', 'status'],
    },
    annotations: { destructiveHint: true, idempotentHint: true },
    completions: { id: 'completeId' },
  })
  close({ id }: { id: string }, ctx: McpToolContext) {
    ctx.progress(0, 1, `closing ${id}`);
    const ticket = this.store.close(id);
    if (!ticket) throw new McpToolError(`No ticket ${id}`); // an isError result the model reads
    ctx.progress(1, 1);
    this.warden.notify('notifications/resources/updated', { uri: OPEN_TICKETS_URI });
    this.warden.notify('notifications/resources/updated', { uri: ticketUri(id) });
    return { id, status: ticket.status };
  }

  @McpTool({
    name: 'purge_closed',
    description: 'Delete every closed ticket.',
    annotations: { destructiveHint: true },
  })
  purge() {
    return `Purged ${this.store.purgeClosed()} tickets`;
  }

  /** Completes a ticket id (used by the tool, the template and the prompt). */
  completeId(prefix: string): string[] {
    return this.store.idsStartingWith(prefix);
  }
}
