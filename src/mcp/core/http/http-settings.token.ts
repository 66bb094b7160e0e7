/**
 * DI token of the HTTP transports' settings (`McpHttpSettings`, built by the transports from
 * the resolved options). It lives here so that the layers below the transports that read
 * HTTP settings (the body reader, the authenticator) inject it typed as the slice they read.
 */
export const MCP_HTTP_SETTINGS = 'McpWarden:http-settings';
