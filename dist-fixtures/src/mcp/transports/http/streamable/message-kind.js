import { isJsonObject, isRequestId } from '../../../protocol/jsonrpc.js';
/** Classifies a message just enough to know whether it expects an answer. */
export function classify(message) {
    if (!isJsonObject(message) || message.jsonrpc !== '2.0')
        return { kind: 'invalid' };
    if (typeof message.method === 'string') {
        if (!('id' in message))
            return { kind: 'notification' };
        return isRequestId(message.id)
            ? { kind: 'request', id: message.id, method: message.method }
            : { kind: 'invalid' };
    }
    if ('result' in message || 'error' in message)
        return { kind: 'response' };
    return { kind: 'invalid' };
}
//# sourceMappingURL=message-kind.js.map