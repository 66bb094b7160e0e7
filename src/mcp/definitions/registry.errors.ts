/**
 * An invalid tool, resource or prompt definition. Thrown at registration, so a
 * bad decorator makes `app.init()` reject with a message naming its method.
 * @publicApi
 */
export class McpDefinitionError extends Error {
  constructor(kind: string, source: string, problem: string) {
    super(`Invalid MCP ${kind} at ${source}: ${problem}`);
    this.name = 'McpDefinitionError';
  }
}

/**
 * A sensitive tool would be served with no tool authorizer.
 * @publicApi
 */
export class McpUnguardedSensitiveToolsError extends Error {
  constructor(names: string[]) {
    super(
      `MCP server refuses to boot: sensitive tools [${names.join(', ')}] are registered ` +
        'but no tool authorizer is set (set `authorizer` in McpModule options)',
    );
    this.name = 'McpUnguardedSensitiveToolsError';
  }
}
