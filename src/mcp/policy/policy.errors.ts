import { JsonRpcErrorCode } from '../core/protocol/error-codes.constants.js';
import { McpWardenError } from '../core/errors/mcp-warden.error.js';

/**
 * The `policy` option cannot be applied: a bad combination of options, or a policy set that
 * does not parse or validate (each of Cedar's diagnostics with its `file:line:col`). Thrown at
 * boot, so the app never serves with a policy it could not read.
 * @publicApi
 */
export class McpPolicyError extends McpWardenError {
  constructor(
    problem: string,
    readonly diagnostics: readonly string[] = [],
  ) {
    super(
      JsonRpcErrorCode.InternalError,
      diagnostics.length === 0 ? problem : `${problem}:\n  ${diagnostics.join('\n  ')}`,
    );
  }

  /** A failure of the framework's own, handled where it is thrown: never a client's answer. */
  override get answersClient(): boolean {
    return false;
  }
}
