import { Injectable } from '@nestjs/common';
import { jsonRpcNotification } from '../../core/protocol/jsonrpc.js';
import { relateToRequest } from '../../core/protocol/related-request.js';
import { McpConnections } from '../connection/mcp-connections.service.js';
import type { McpUrlElicitationInfo } from '../../definitions/interfaces/url-elicitation.interface.js';
import { findUrlElicitation, forgetUrlElicitation } from './url-elicitation.ledger.js';

/**
 * The URL-mode elicitations clients were sent (by `ctx.elicitUrl()`, or in a
 * -32042 `McpUrlElicitationRequiredError`) and not yet completed. When the
 * user has finished on your page, `complete(elicitationId)` tells the client
 * that was sent it, and only that client (spec 2025-11-25: elicitation
 * complete notifications). One is forgotten when it completes, when the user
 * declined it, or when its connection closes.
 *
 * @example
 * @Get('connect/done')
 * done(@Query('id') id: string, @Req() req: AuthedRequest) {
 *   const pending = this.elicitations.find(id);
 *   const user = { subject: req.user.sub, issuer: req.user.iss };
 *   if (!samePrincipal(pending?.principal, user)) throw new ForbiddenException();
 *   // … store what the user gave, bound to req.user.sub …
 *   this.elicitations.complete(id);
 * }
 * @publicApi
 */
@Injectable()
export class McpUrlElicitations {
  constructor(private readonly connections: McpConnections) {}

  /** The open elicitation `elicitationId`, or undefined (unknown, completed, or its client gone). */
  find(elicitationId: string): McpUrlElicitationInfo | undefined {
    const record = findUrlElicitation(this.connections.all(), elicitationId);
    if (!record) return undefined;
    const { url, message, connection, principal } = record;
    const info: McpUrlElicitationInfo = { elicitationId, url, message, connId: connection.id };
    return principal === undefined ? info : { ...info, principal };
  }

  /**
   * Sends `notifications/elicitation/complete` to the connection that was sent
   * `elicitationId`, on the asking request's stream while it is open, and
   * forgets it. False when nothing open has that id: nothing is sent then
   * (a client must ignore unknown ids; better not to send them).
   */
  complete(elicitationId: string): boolean {
    const record = findUrlElicitation(this.connections.all(), elicitationId);
    if (!record) return false;
    forgetUrlElicitation(record.connection, elicitationId);
    const notice = jsonRpcNotification('notifications/elicitation/complete', { elicitationId });
    record.connection.send(relateToRequest(notice, record.requestId));
    return true;
  }
}
