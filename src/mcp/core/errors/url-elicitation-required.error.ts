import { ElicitRequestURLParamsSchema } from '@modelcontextprotocol/core';
import { isHttpUrl } from '../common/http-url.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.constants.js';
import { McpWardenError } from './mcp-warden.error.js';

/**
 * One URL-mode elicitation the user must finish before a request can be
 * retried. `elicitationId` is yours to choose (put it in the `url` so the
 * page knows which one it serves) and is what `McpUrlElicitations.complete()`
 * takes once the user is done.
 * @publicApi
 */
export interface McpUrlElicitation {
  elicitationId: string;
  /** The page the user should open; never pre-authenticated, never carrying personal data. */
  url: string;
  /** Why the user should go there, for the client to show. */
  message: string;
}

/**
 * Throw from a handler when the request cannot proceed until the user
 * finishes URL-mode elicitations (spec 2025-11-25 `URLElicitationRequiredError`).
 * The client gets JSON-RPC error -32042 with `data.elicitations`, each
 * `{ mode: 'url', elicitationId, url, message }`, and may retry once
 * `notifications/elicitation/complete` arrives. A client that did not declare
 * URL-mode elicitation cannot take it: a tool then answers an `isError` result
 * instead, and the error never reaches the wire.
 *
 * Not called `UrlElicitationRequiredError`: the official SDK exports that name.
 *
 * @example
 * const elicitationId = randomUUID();
 * throw new McpUrlElicitationRequiredError([
 *   { elicitationId, url: `https://app.example/connect?id=${elicitationId}`, message: 'Connect your calendar' },
 * ]);
 * @publicApi
 */
export class McpUrlElicitationRequiredError extends McpWardenError {
  declare readonly data: { elicitations: (McpUrlElicitation & { mode: 'url' })[] };

  constructor(
    elicitations: readonly McpUrlElicitation[],
    message = 'This request requires more information.',
  ) {
    // The spec requires at least one, each a valid URL elicitation with its id.
    if (elicitations.length === 0) throw new TypeError('list at least one URL elicitation');
    const listed = elicitations.map(({ elicitationId, url, message: why }) => {
      const elicitation = { mode: 'url' as const, elicitationId, url, message: why };
      const valid = ElicitRequestURLParamsSchema.safeParse(elicitation).success;
      if (!valid || elicitationId === '' || !isHttpUrl(url)) {
        throw new TypeError(`invalid URL elicitation ${JSON.stringify(elicitation)}`);
      }
      return elicitation;
    });
    super(JsonRpcErrorCode.UrlElicitationRequired, message, { elicitations: listed });
  }

  /** The elicitations the user must finish, as sent. */
  get elicitations(): readonly (McpUrlElicitation & { mode: 'url' })[] {
    return this.data.elicitations;
  }
}
