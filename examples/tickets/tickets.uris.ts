/** The open tickets, as one JSON resource. */
export const OPEN_TICKETS_URI = 'tickets://open';
/** One ticket, as Markdown. */
export const TICKET_URI_TEMPLATE = 'tickets://{id}';

export const ticketUri = (id: string): string => `tickets://${id}`;
