import { JsonRpcErrorCode } from './error-codes.constants.js';
/**
 * Base of every error the framework raises on purpose. The dispatcher turns it
 * into a JSON-RPC error with `code`, `message` and optional `data`; anything
 * that is not an `McpError` becomes a bare -32603 so no internal text leaks.
 */
export class McpError extends Error {
    constructor(code, message, data) {
        super(message);
        this.code = code;
        this.data = data;
        this.name = new.target.name;
    }
}
/** The envelope is not a valid JSON-RPC 2.0 message (-32600). */
export class McpInvalidRequestError extends McpError {
    constructor(message = 'Invalid Request') {
        super(JsonRpcErrorCode.InvalidRequest, message);
    }
}
/** No handler serves the method (-32601). */
export class McpMethodNotFoundError extends McpError {
    constructor(method) {
        super(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
}
/** The request's params are missing or malformed, or name something unknown (-32602). */
export class McpInvalidParamsError extends McpError {
    constructor(message) {
        super(JsonRpcErrorCode.InvalidParams, message);
    }
}
/** `resources/read` for a URI no resource or template serves (-32002, 2025 era). */
export class McpResourceNotFoundError extends McpError {
    constructor(uri) {
        super(JsonRpcErrorCode.ResourceNotFound, 'Resource not found', { uri });
    }
}
//# sourceMappingURL=mcp.errors.js.map