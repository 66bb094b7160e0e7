import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';

/**
 * What became of one inbound message (or batch), for the transport:
 * - `reply`: write `message` back now;
 * - `parked`: a request is waiting (for the user's approval); its response will
 *   come later on the connection's outbound channel, related to its id;
 * - `none`: nothing will ever answer it (a notification, a response, or a
 *   request cancelled before it finished).
 * @publicApi
 */
export type McpDispatchOutcome =
  | { readonly kind: 'reply'; readonly message: JsonRpcMessage | JsonRpcMessage[] }
  | { readonly kind: 'parked' }
  | { readonly kind: 'none' };

export const PARKED: McpDispatchOutcome = Object.freeze({ kind: 'parked' });
export const NONE: McpDispatchOutcome = Object.freeze({ kind: 'none' });

export function reply(message: JsonRpcMessage | JsonRpcMessage[]): McpDispatchOutcome {
  return { kind: 'reply', message };
}
