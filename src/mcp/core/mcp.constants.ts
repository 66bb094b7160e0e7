/** Metadata keys written by the framework's decorators. */
export const MCP_TOOL_METADATA = Symbol('mcp:tool');
export const MCP_RESOURCE_METADATA = Symbol('mcp:resource');
export const MCP_RESOURCE_TEMPLATE_METADATA = Symbol('mcp:resource-template');
export const MCP_PROMPT_METADATA = Symbol('mcp:prompt');
export const MCP_METHOD_METADATA = Symbol('mcp:method');

/**
 * The execution context type guards and interceptors see for MCP handlers.
 * @publicApi
 */
export const MCP_CONTEXT_TYPE = 'mcp';

/**
 * The connection id used when a caller does not name one (stdio, direct callers).
 * @publicApi
 */
export const DEFAULT_CONN_ID = 'default';
