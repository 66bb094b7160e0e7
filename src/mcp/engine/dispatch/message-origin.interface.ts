import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpTransportKind } from '../../core/protocol/transport-kind.js';

/**
 * Where one message came from, as the transport that received it knows it.
 * Only transports (and in-process callers, which are the application itself)
 * build it; it is what the seams' context and the handlers' context are made
 * of, so nothing in the message can change it.
 * @publicApi
 */
export interface McpMessageOrigin {
  /** The transport the message really arrived on. */
  readonly transport: McpTransportKind;
  /** The caller, when the transport authenticated one. */
  readonly principal?: McpPrincipal;
  /** The HTTP request that carried the message (HTTP transports only). */
  readonly httpRequest?: IncomingMessage;
}
