import type { JsonRpcMessage, RequestId } from './jsonrpc.js';

/**
 * Outbound messages that belong to a request (its progress, its log lines, the
 * server→client requests it makes) carry that request's id out of band, so an
 * HTTP transport can put them on the request's own stream. A symbol-keyed,
 * non-enumerable property keeps it out of `JSON.stringify` and deep equality.
 */
const RELATED_REQUEST = Symbol('mcp.relatedRequestId');

/** Marks `message` as related to the client request `id`; returns the message. */
export function relateToRequest<T extends JsonRpcMessage>(message: T, id: RequestId): T {
  Object.defineProperty(message, RELATED_REQUEST, { value: id, enumerable: false });
  return message;
}

/** The id of the client request `message` belongs to, if any. */
export function relatedRequestOf(message: object): RequestId | undefined {
  return (message as { [RELATED_REQUEST]?: RequestId })[RELATED_REQUEST];
}
