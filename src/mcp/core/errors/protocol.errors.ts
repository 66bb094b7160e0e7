import { JsonRpcErrorCode } from '../protocol/error-codes.constants.js';
import { McpWardenError } from './mcp-warden.error.js';

/**
 * The envelope is not a valid JSON-RPC 2.0 message (-32600).
 * @publicApi
 */
export class McpInvalidRequestError extends McpWardenError {
  constructor(message = 'Invalid Request') {
    super(JsonRpcErrorCode.InvalidRequest, message);
  }
}

/**
 * No handler serves the method (-32601).
 * @publicApi
 */
export class McpMethodNotFoundError extends McpWardenError {
  constructor(method: string) {
    super(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
}

/**
 * The request's params are missing or malformed, or name something unknown
 * (-32602). A prompt handler throws it for an argument it cannot serve.
 * @publicApi
 */
export class McpInvalidParamsError extends McpWardenError {
  constructor(message: string) {
    super(JsonRpcErrorCode.InvalidParams, message);
  }
}

/**
 * `resources/read` for a URI nothing serves (-32002, 2025 era). A resource
 * template handler throws it for a URI that matches but names nothing.
 * @publicApi
 */
export class McpResourceNotFoundError extends McpWardenError {
  constructor(uri: string) {
    super(JsonRpcErrorCode.ResourceNotFound, 'Resource not found', { uri });
  }
}

/**
 * A connection has more requests in flight than `limits.maxInFlightPerConnection` (-31429).
 * @publicApi
 */
export class McpTooManyRequestsError extends McpWardenError {
  constructor(message = 'Too many requests in flight') {
    super(JsonRpcErrorCode.TooManyRequests, message);
  }
}
