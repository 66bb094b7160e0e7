import type { JsonRpcMessage } from '../../core/protocol/jsonrpc.js';

/**
 * What became of one inbound message (or batch), for the transport:
 * - `reply`: write `message` back now;
 * - `parked`: a request is waiting (for the user's approval); its response will
 *   come later on the connection's outbound channel, related to its id.
 *   `answered` settles when it is done: true once its response went out,
 *   false when nothing will answer it (it was cancelled), so a transport can
 *   stop waiting for it;
 * - `none`: nothing will ever answer it (a notification, a response, or a
 *   request cancelled before it finished).
 * @publicApi
 */
export type McpDispatchOutcome =
  | { readonly kind: 'reply'; readonly message: JsonRpcMessage | JsonRpcMessage[] }
  | { readonly kind: 'parked'; readonly answered?: Promise<boolean> }
  | { readonly kind: 'none' };

export const PARKED: McpDispatchOutcome = Object.freeze({ kind: 'parked' });
export const NONE: McpDispatchOutcome = Object.freeze({ kind: 'none' });

export function parked(answered: Promise<boolean>): McpDispatchOutcome {
  return { kind: 'parked', answered };
}

export function reply(message: JsonRpcMessage | JsonRpcMessage[]): McpDispatchOutcome {
  return { kind: 'reply', message };
}
