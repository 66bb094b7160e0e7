/**
 * Throw from a tool to report a failure whose message is safe to show the
 * model. Any other error is logged and answered with a generic message.
 *
 * @example
 * if (!note) throw new McpToolError(`No note with id ${id}`);
 */
export class McpToolError extends Error {
    constructor(message) {
        super(message);
        this.name = 'McpToolError';
    }
}
//# sourceMappingURL=mcp-tool.error.js.map