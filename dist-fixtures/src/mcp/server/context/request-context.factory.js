import { jsonRpcNotification } from '../../protocol/jsonrpc.js';
import { relateToRequest } from '../../protocol/related-request.js';
import { clientRequestsFor } from './client-requests.js';
import { passesLogLevel } from './log-level.js';
/**
 * Builds the context a handler receives. Progress and log messages go to the
 * caller's connection only, tagged with the request's id; progress must
 * increase and stops once the request has ended (spec: progress).
 */
export function createRequestScope(request) {
    const { connection, id } = request;
    const meta = request.params._meta;
    const token = meta?.progressToken;
    const hasToken = typeof token === 'string' || typeof token === 'number';
    let lastProgress = -Infinity;
    let ended = false;
    const context = {
        ...clientRequestsFor(request),
        connId: connection.id,
        transport: request.transport,
        requestId: id,
        signal: request.signal,
        progress(progress, total, message) {
            if (ended || !hasToken || !(progress > lastProgress))
                return;
            lastProgress = progress;
            const params = { progressToken: token, progress };
            if (total !== undefined)
                params.total = total;
            if (message !== undefined)
                params.message = message;
            connection.send(relateToRequest(jsonRpcNotification('notifications/progress', params), id));
        },
        log(level, data, logger) {
            if (ended || !passesLogLevel(level, connection.logLevel))
                return;
            const params = { level, data };
            if (logger !== undefined)
                params.logger = logger;
            connection.send(relateToRequest(jsonRpcNotification('notifications/message', params), id));
        },
    };
    return {
        context,
        end: () => {
            ended = true;
        },
    };
}
//# sourceMappingURL=request-context.factory.js.map