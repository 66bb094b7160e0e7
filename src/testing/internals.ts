/*
 * Internals that tests of an MCP Warden app (and our own) may inspect, such
 * as live session tables for leak checks. Not part of the application API:
 * they may change in any release.
 */
export { McpHttpSessions } from '../mcp/transports/http/session/http-sessions.service.js';
export { SsePairSessions } from '../mcp/transports/http/sse-2024-11-05/sse-pair.sessions.service.js';
/**
 * @deprecated Renamed `SsePairSessions`: "legacy" names only the handshake era now.
 */
export { SsePairSessions as LegacySseSessions } from '../mcp/transports/http/sse-2024-11-05/sse-pair.sessions.service.js';
export { relatedRequestOf } from '../mcp/core/protocol/related-request.js';
export { MCP_OPTIONS } from '../mcp/core/options/options.constants.js';
export type { McpResolvedOptions } from '../mcp/options/resolved-options.interface.js';
