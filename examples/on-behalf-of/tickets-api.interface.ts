/** One ticket, as the tickets API lists it. */
export interface ApiTicket {
  id: string;
  title: string;
  status: 'open' | 'closed';
}

/**
 * The tickets API's answer to `GET /tickets/mine`: the tickets of the token's subject
 * (`owner`), and the actor the token names (`act`, RFC 8693 §4.1) when someone acts for them.
 */
export interface MyTicketsAnswer {
  owner: string;
  act?: { sub: string };
  tickets: ApiTicket[];
}
