import { Injectable } from '@nestjs/common';
import type { Ticket } from './ticket.interface.js';

/** The tickets, in memory, seeded with two so the example has something to show. */
@Injectable()
export class TicketsStore {
  private readonly tickets = new Map<string, Ticket>();
  private next = 1;

  constructor() {
    this.open('Printer on floor 2 is jammed', 'Paper tray 3 again.');
    this.open('VPN drops every hour', 'Since the client update on Monday.');
  }

  list(status?: Ticket['status']): Ticket[] {
    const all = [...this.tickets.values()];
    return status ? all.filter((ticket) => ticket.status === status) : all;
  }

  get(id: string): Ticket | undefined {
    return this.tickets.get(id);
  }

  /** Ids beginning with `prefix`, for completion. */
  idsStartingWith(prefix: string): string[] {
    return [...this.tickets.keys()].filter((id) => id.startsWith(prefix));
  }

  open(title: string, body = ''): Ticket {
    const ticket: Ticket = {
      id: `T-${this.next++}`,
      title,
      body,
      status: 'open',
      createdAt: new Date().toISOString(),
    };
    this.tickets.set(ticket.id, ticket);
    return ticket;
  }

  close(id: string): Ticket | undefined {
    const ticket = this.tickets.get(id);
    if (ticket) ticket.status = 'closed';
    return ticket;
  }

  /** Removes every closed ticket; returns how many went. */
  purgeClosed(): number {
    let removed = 0;
    for (const ticket of this.list('closed')) removed += Number(this.tickets.delete(ticket.id));
    return removed;
  }
}
