import { JsonRpcErrorCode } from '../core/protocol/error-codes.constants.js';
import { McpWardenError } from '../core/errors/mcp-warden.error.js';

/**
 * An invalid tool, resource or prompt definition. Thrown at registration, so a
 * bad decorator makes `app.init()` reject with a message naming its method.
 * @publicApi
 */
export class McpDefinitionError extends McpWardenError {
  constructor(kind: string, source: string, problem: string) {
    super(JsonRpcErrorCode.InternalError, `Invalid MCP ${kind} at ${source}: ${problem}`);
  }

  /** A failure of the framework's own, handled where it is thrown: never a client's answer. */
  override get answersClient(): boolean {
    return false;
  }
}

/**
 * A sensitive tool would be served with no tool authorizer.
 * @publicApi
 */
export class McpUnguardedSensitiveToolsError extends McpWardenError {
  constructor(names: string[]) {
    super(
      JsonRpcErrorCode.InternalError,
      `MCP server refuses to boot: sensitive tools [${names.join(', ')}] are registered ` +
        'but no tool authorizer is set (set `policy` or `authorizer` in McpModule options)',
    );
  }

  /** A failure of the framework's own, handled where it is thrown: never a client's answer. */
  override get answersClient(): boolean {
    return false;
  }
}
