import { Injectable } from '@nestjs/common';
import { McpTool, type McpToolContext } from '../../src/index.js';
import { OnBehalfOfConfig } from './on-behalf-of.config.js';
import { TicketsApiClient } from './tickets-api.client.js';

/** Tools that read the tickets API as their caller, never as the server. */
@Injectable()
export class MyTicketsTools {
  constructor(
    private readonly config: OnBehalfOfConfig,
    private readonly ticketsApi: TicketsApiClient,
  ) {}

  @McpTool({
    name: 'my_tickets',
    description: "The caller's tickets, read from the tickets API on the caller's behalf.",
    annotations: { readOnlyHint: true, openWorldHint: true },
  })
  async myTickets(_args: object, ctx: McpToolContext) {
    // The caller's own token names this server as its audience, so it is not passed on: the
    // issuer trades it for one the tickets API accepts, with the caller as subject and this
    // server as actor. Tokens are cached per caller, so repeated calls exchange once. If the
    // issuer refuses, the McpTokenExchangeError is left to propagate: the framework answers
    // with an isError result that carries the OAuth error code (invalid_target, …).
    const { accessToken } = await ctx.credentials.exchange({
      audience: this.config.ticketsApiAudience,
      scope: 'tickets:read', // only what this tool needs, not everything the caller may do
    });
    const answer = await this.ticketsApi.myTickets(accessToken);
    // A plain object: sent as structuredContent plus its JSON text.
    return {
      owner: answer.owner,
      actor: answer.act?.sub ?? null,
      count: answer.tickets.length,
      tickets: answer.tickets,
    };
  }
}
