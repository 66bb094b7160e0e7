import { JsonRpcErrorCode } from '../protocol/error-codes.constants.js';
import { McpWardenError } from './mcp-warden.error.js';

/**
 * Throw from a tool to report a failure whose message is safe to show the
 * model. Any other error is logged and answered with a generic message.
 *
 * @example
 * if (!note) throw new McpToolError(`No note with id ${id}`);
 * @publicApi
 */
export class McpToolError extends McpWardenError {
  constructor(message: string) {
    super(JsonRpcErrorCode.InternalError, message);
  }

  /** A failure of the framework's own, answered as the tool's `isError` result, never as a JSON-RPC error. */
  override get answersClient(): boolean {
    return false;
  }
}
