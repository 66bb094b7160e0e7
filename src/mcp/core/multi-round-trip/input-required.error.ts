import { McpToolError } from '../errors/mcp-tool.error.js';

/**
 * What `ctx.elicit()`, `ctx.sample()` and `ctx.listRoots()` reject with in
 * the modern era when the client has not answered yet: the request ends with
 * an input-required result, and the handler runs again when the client
 * retries with the answer. A handler that catches it changes nothing: a
 * round that asked for input always answers input-required.
 * @publicApi
 */
export class McpInputRequiredError extends McpToolError {
  constructor(readonly key: string) {
    super(`Input required: ${key}`);
    this.name = 'McpInputRequiredError';
  }
}
