/**
 * What each `McpModule.forRoot()` / `forRootAsync()` provides under
 * `MCP_SERVER_MARK`: one object per server module, so a server finds its own
 * module (and its siblings) among the app's modules, and recognises the
 * imports a feature module declared. See docs/architecture.md, "Several servers".
 */
export interface McpServerMark {
  /** The name given to `forRoot` (or beside `forRootAsync`'s factory); absent if only the factory knows it. */
  readonly declaredName?: string;
  /** Unique per server module in this process: tags the server's own HTTP routes. */
  readonly routeId: string;
}

export const MCP_SERVER_MARK = 'McpWarden:server-mark';

let next = 0;

/** A fresh mark for a server module being declared. */
export function serverMark(declaredName: string | undefined): McpServerMark {
  next += 1;
  return { declaredName, routeId: `mcp-server-${next}` };
}
