import { ListRootsResultSchema } from '@modelcontextprotocol/core';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpTransportKind } from '../../core/protocol/transport-kind.js';
import type { ListRootsResult } from '../../core/protocol/mcp-types.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import type { McpMessageOrigin } from '../dispatch/message-origin.interface.js';
import type { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';

/**
 * A client said its roots changed (`notifications/roots/list_changed`).
 * @publicApi
 */
export interface McpRootsListChangedEvent {
  /** The connection that sent it. */
  readonly connId: string;
  /** The transport it arrived on. */
  readonly transport: McpTransportKind;
  /** The caller, when the transport authenticated one. */
  readonly principal?: McpPrincipal;
  /**
   * Asks that client, and only it, for its roots now (`roots/list`). Rejects
   * if it did not declare `roots`, on `elicitationTimeoutMs`, or when its
   * connection closes.
   */
  listRoots(): Promise<ListRootsResult>;
}

/** Builds the event for `connection`; `listRoots` talks to that connection only. */
export function rootsListChangedEvent(
  connection: McpConnection,
  origin: McpMessageOrigin,
  outbound: McpOutboundRequests,
): McpRootsListChangedEvent {
  const event: McpRootsListChangedEvent = {
    connId: connection.id,
    transport: origin.transport,
    listRoots: () => listRoots(connection, outbound),
  };
  return origin.principal ? { ...event, principal: origin.principal } : event;
}

async function listRoots(
  connection: McpConnection,
  outbound: McpOutboundRequests,
): Promise<ListRootsResult> {
  // Spec: never use a capability the client did not declare.
  if (connection.capabilities?.roots === undefined) {
    throw new Error('The client did not declare the roots capability');
  }
  const result = await outbound.request(connection, 'roots/list', {});
  if (!ListRootsResultSchema.safeParse(result).success) {
    throw new Error('The client answered roots/list with a malformed result');
  }
  return result as ListRootsResult;
}
