/**
 * Base of every error the framework raises on purpose, and the one a handler
 * throws to answer with a specific JSON-RPC error. The dispatcher turns it into
 * an error response with `code`, `message` and optional `data`; anything that
 * is not one (or an official SDK error, see `sdk-errors.ts`) becomes a bare
 * -32603 so no internal text leaks.
 *
 * The family (docs/architecture.md, "Errors"): the protocol errors a handler
 * may throw (`McpInvalidParamsError`, `McpResourceNotFoundError`, …), which
 * answer the client; and the framework's own failures (`McpDefinitionError`,
 * `McpToolError`, `McpHttpError`, …), whose `answersClient` is false: each is
 * handled where it is thrown, and one that reaches the dispatcher is answered
 * with a bare -32603 like any other error.
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

  /**
   * Whether the dispatcher answers a request with this error's code, message
   * and data. False for the framework's internal failures, whose text is for
   * the log or for the layer that handles them.
   */
  get answersClient(): boolean {
    return true;
  }
}
