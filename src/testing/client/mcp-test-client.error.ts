import { McpWardenError } from '../../mcp/core/errors/mcp-warden.error.js';

/**
 * A JSON-RPC error reply, as `McpTestClient` rejects with it: the server's
 * `code`, `message` and `data`, and the `method` that failed. It is an
 * `McpWardenError`, so `expect(...).rejects.toMatchObject({ code })` and
 * `instanceof` checks against either class work.
 *
 * @example
 * await expect(client.readResource('notes://missing')).rejects.toMatchObject({
 *   code: -32002,
 * });
 */
export class McpTestClientError extends McpWardenError {
  constructor(
    readonly method: string,
    code: number,
    message: string,
    data?: unknown,
  ) {
    super(code, message, data);
  }
}
