import { McpToolError } from '../../core/errors/mcp-tool.error.js';

/**
 * A token exchange that did not give a token: the issuer refused (`oauthError` is its OAuth
 * error code, `invalid_target` say), or it could not be asked. Thrown from a tool it answers as
 * the tool's error result, with this message. The server's own credentials are never in it.
 * @publicApi
 */
export class McpTokenExchangeError extends McpToolError {
  constructor(
    message: string,
    readonly oauthError?: string,
  ) {
    super(message);
  }
}
