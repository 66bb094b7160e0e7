import type { ResolvedMcpLimits } from '../../limits/mcp-limits.interface.js';
import type { McpModuleOptions } from '../../mcp-options.interface.js';

/** The HTTP transport's settings with every default applied, and the limits it enforces. */
export interface ResolvedHttpOptions {
  path: string;
  allowedOrigins: string[];
  allowedHosts: string[];
  maxBodyBytes: number;
  maxSessions: number;
  sessionIdleMs: number;
  eventBufferSize: number;
  maxQueuedEvents: number;
  keepAliveMs: number;
  retryMs: number;
}

/** DI token of the resolved HTTP options. */
export const MCP_HTTP_OPTIONS = Symbol('MCP_HTTP_OPTIONS');

/** Builds the HTTP settings from the module options and the limits `MCP_LIMITS` already resolved. */
export function resolveHttpOptions(
  options: McpModuleOptions,
  limits: ResolvedMcpLimits,
): ResolvedHttpOptions {
  const http = options.http ?? {};
  const path = '/' + (http.path ?? '/mcp').replace(/^\/+|\/+$/g, '');
  return {
    path,
    allowedOrigins: http.allowedOrigins ?? [],
    allowedHosts: http.allowedHosts ?? [],
    maxBodyBytes: limits.maxBodyBytes,
    maxSessions: limits.maxSessions,
    sessionIdleMs: limits.sessionIdleMs,
    eventBufferSize: limits.eventBufferSize,
    maxQueuedEvents: limits.maxQueuedEvents,
    keepAliveMs: http.keepAliveMs ?? 15_000,
    retryMs: http.retryMs ?? 1_000,
  };
}
