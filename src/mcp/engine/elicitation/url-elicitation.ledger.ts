import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { RequestId } from '../../core/protocol/jsonrpc.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';

/** One URL-mode elicitation a connection was sent, until it completes. */
export interface UrlElicitationRecord {
  readonly elicitationId: string;
  readonly url: string;
  readonly message: string;
  readonly connection: McpConnection;
  readonly principal?: McpPrincipal;
  /** The request that asked (or threw -32042): the completion travels on its stream while it lasts. */
  readonly requestId: RequestId;
}

/** Open URL elicitations kept per connection; past it the oldest is forgotten. */
export const MAX_URL_ELICITATIONS_PER_CONNECTION = 64;

/*
 * The URL elicitations each connection was sent, kept beside the connection
 * rather than in a service: they are started by `ctx.elicitUrl()` and by a
 * handler throwing -32042, where no injector reaches, and they must end with
 * the connection. Keyed by the connection object, the table holds nothing of
 * a connection once it is gone, and nothing one app could see of another's.
 */
const byConnection = new WeakMap<McpConnection, Map<string, UrlElicitationRecord>>();

/** Notes that `request`'s connection was sent the URL elicitation `elicitation`. */
export function recordUrlElicitation(
  request: McpRequest,
  elicitation: { elicitationId: string; url: string; message: string },
): void {
  const { connection } = request;
  let open = byConnection.get(connection);
  if (!open) {
    open = new Map();
    byConnection.set(connection, open);
    connection.onClose(() => byConnection.delete(connection));
  }
  open.delete(elicitation.elicitationId); // a repeat moves to the end: it is the newest again
  open.set(elicitation.elicitationId, {
    elicitationId: elicitation.elicitationId,
    url: elicitation.url,
    message: elicitation.message,
    connection,
    principal: request.principal,
    requestId: request.id,
  });
  if (open.size > MAX_URL_ELICITATIONS_PER_CONNECTION) {
    open.delete(open.keys().next().value as string);
  }
}

/** Forgets one URL elicitation of `connection` (declined, failed, or completed). */
export function forgetUrlElicitation(connection: McpConnection, elicitationId: string): void {
  byConnection.get(connection)?.delete(elicitationId);
}

/** The open URL elicitation `elicitationId` among `connections`, if one of them was sent it. */
export function findUrlElicitation(
  connections: Iterable<McpConnection>,
  elicitationId: string,
): UrlElicitationRecord | undefined {
  for (const connection of connections) {
    const record = byConnection.get(connection)?.get(elicitationId);
    if (record) return record;
  }
  return undefined;
}
