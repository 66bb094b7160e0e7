import { JsonRpcErrorCode } from './error-codes.constants.js';
/** Builds a success response. */
export function jsonRpcResult(id, result) {
    return { jsonrpc: '2.0', id, result };
}
/** Builds an error response; `id` is null when the request's id could not be read. */
export function jsonRpcError(id, code, message, data) {
    const error = { code, message };
    if (data !== undefined)
        error.data = data;
    return { jsonrpc: '2.0', id, error };
}
/** The -32700 reply a framing transport sends for bytes that are not JSON. */
export function parseErrorResponse() {
    return jsonRpcError(null, JsonRpcErrorCode.ParseError, 'Parse error');
}
/** Builds a notification. */
export function jsonRpcNotification(method, params) {
    return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}
/** True for a valid request id (JSON-RPC allows strings and numbers; MCP forbids null). */
export function isRequestId(value) {
    return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}
/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
//# sourceMappingURL=jsonrpc.js.map