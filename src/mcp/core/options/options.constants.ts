/** DI token of the resolved options (`McpResolvedOptions`); readable in DI errors. */
export const MCP_OPTIONS = 'McpWarden:options';

/** Present only when the HTTP transports are mounted; the boot check reads it. */
export const MCP_HTTP_MOUNTED = 'McpWarden:http-mounted';
