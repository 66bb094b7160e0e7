/**
 * Base of every error the framework raises on purpose, and the one a handler
 * throws to answer with a specific JSON-RPC error. The dispatcher turns it into
 * an error response with `code`, `message` and optional `data`; anything that
 * is not one (or an official SDK error, see `sdk-errors.ts`) becomes a bare
 * -32603 so no internal text leaks.
 *
 * Not called `McpError`: the official SDK exports a class of that name, and
 * users import both side by side.
 *
 * @publicApi
 */
export class McpWardenError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
