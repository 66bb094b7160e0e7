import { JsonRpcErrorCode } from './error-codes.constants.js';
import { McpWardenError } from '../errors/mcp-warden.error.js';

/**
 * A modern request's HTTP headers disagree with its body, or a required one
 * is missing (-32020, HTTP 400). `data.mismatch` names the pair.
 * @publicApi
 */
export class McpHeaderMismatchError extends McpWardenError {
  constructor(header: string, body: string) {
    super(
      JsonRpcErrorCode.HeaderMismatch,
      `Bad Request: the request headers and body disagree: ${body}`,
      { mismatch: { header, body } },
    );
  }
}

/**
 * The request needs a client capability its `_meta` did not declare (-32021, HTTP 400).
 * @publicApi
 */
export class McpMissingClientCapabilityError extends McpWardenError {
  constructor(requiredCapabilities: Record<string, unknown>) {
    const names = Object.keys(requiredCapabilities).join(', ');
    super(
      JsonRpcErrorCode.MissingRequiredClientCapability,
      `Missing required client capability: ${names}`,
      { requiredCapabilities },
    );
  }
}

/**
 * The request names a protocol version this server does not serve (-32022, HTTP 400).
 * @publicApi
 */
export class McpUnsupportedProtocolVersionError extends McpWardenError {
  constructor(supported: readonly string[], requested?: string) {
    super(
      JsonRpcErrorCode.UnsupportedProtocolVersion,
      requested === undefined
        ? 'Unsupported protocol version: the request did not name one'
        : `Unsupported protocol version: ${requested}`,
      requested === undefined
        ? { supported: [...supported] }
        : { supported: [...supported], requested },
    );
  }
}
