/**
 * An invalid tool, resource or prompt definition. Thrown at registration, so a
 * bad decorator makes `app.init()` reject with a message naming its method.
 */
export class McpDefinitionError extends Error {
    constructor(kind, source, problem) {
        super(`Invalid MCP ${kind} at ${source}: ${problem}`);
        this.name = 'McpDefinitionError';
    }
}
/** A sensitive tool would be served with no tool authorizer. */
export class McpUnguardedSensitiveToolsError extends Error {
    constructor(names) {
        super(`MCP server refuses to boot: sensitive tools [${names.join(', ')}] are registered ` +
            'but no tool authorizer is set (set `authorizer` in McpModule options)');
        this.name = 'McpUnguardedSensitiveToolsError';
    }
}
//# sourceMappingURL=registry.errors.js.map