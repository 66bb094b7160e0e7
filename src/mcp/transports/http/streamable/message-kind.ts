import { isJsonObject, isRequestId, type RequestId } from '../../../core/protocol/jsonrpc.js';

/** How the transport must treat one message of a POST body. */
export type MessageKind =
  | { kind: 'request'; id: RequestId; method: string }
  | { kind: 'notification' }
  | { kind: 'response' }
  | { kind: 'invalid' };

/** Classifies a message just enough to know whether it expects an answer. */
export function classify(message: unknown): MessageKind {
  if (!isJsonObject(message) || message.jsonrpc !== '2.0') return { kind: 'invalid' };
  if (typeof message.method === 'string') {
    if (!('id' in message)) return { kind: 'notification' };
    return isRequestId(message.id)
      ? { kind: 'request', id: message.id, method: message.method }
      : { kind: 'invalid' };
  }
  if ('result' in message || 'error' in message) return { kind: 'response' };
  return { kind: 'invalid' };
}
