/**
 * Which transport carries a server's clients, as declared by whoever started it.
 * @publicApi
 */
export type McpTransportKind = 'stdio' | 'http' | 'unknown';
