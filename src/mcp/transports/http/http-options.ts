import type { McpModuleOptions } from '../../mcp-options.interface.js';

/** The HTTP transport's settings with every default applied. */
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

export function resolveHttpOptions(options: McpModuleOptions): ResolvedHttpOptions {
  const http = options.http ?? {};
  const path = '/' + (http.path ?? '/mcp').replace(/^\/+|\/+$/g, '');
  return {
    path,
    allowedOrigins: http.allowedOrigins ?? [],
    allowedHosts: http.allowedHosts ?? [],
    maxBodyBytes: http.maxBodyBytes ?? 4 * 1024 * 1024,
    maxSessions: http.maxSessions ?? 1_000,
    sessionIdleMs: http.sessionIdleMs ?? 30 * 60_000,
    eventBufferSize: http.eventBufferSize ?? 256,
    maxQueuedEvents: http.maxQueuedEvents ?? 1_000,
    keepAliveMs: http.keepAliveMs ?? 15_000,
    retryMs: http.retryMs ?? 1_000,
  };
}
