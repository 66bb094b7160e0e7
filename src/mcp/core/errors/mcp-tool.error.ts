/**
 * Throw from a tool to report a failure whose message is safe to show the
 * model. Any other error is logged and answered with a generic message.
 *
 * @example
 * if (!note) throw new McpToolError(`No note with id ${id}`);
 * @publicApi
 */
export class McpToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpToolError';
  }
}
