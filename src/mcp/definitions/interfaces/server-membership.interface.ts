/**
 * Which servers serve a decorated definition (`@McpTool`, `@McpResource`,
 * `@McpResourceTemplate`, `@McpPrompt`), in an app with several servers.
 * @publicApi
 */
export interface McpServerMembership {
  /**
   * The `name`s of the servers that serve it. Default: the servers the
   * declaring provider's module imports (`McpModule.forRoot()` in its
   * `imports`), or the app's only server. A name the app does not have fails
   * boot (docs/several-servers.md).
   */
  server?: string | string[];
}
