import { Injectable } from '@nestjs/common';
import { McpToolError } from '../../src/index.js';
import { OnBehalfOfConfig } from './on-behalf-of.config.js';
import type { MyTicketsAnswer } from './tickets-api.interface.js';

/** The downstream tickets API, called with whatever token the caller of this client hands it. */
@Injectable()
export class TicketsApiClient {
  constructor(private readonly config: OnBehalfOfConfig) {}

  /** The tickets of the subject of `accessToken`, a token whose audience is the tickets API. */
  async myTickets(accessToken: string): Promise<MyTicketsAnswer> {
    const response = await fetch(`${this.config.ticketsApiUrl}/tickets/mine`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    // The status only: the model reads this message, and the API's body may say too much.
    if (!response.ok) throw new McpToolError(`the tickets API answered ${response.status}`);
    return (await response.json()) as MyTicketsAnswer;
  }
}
