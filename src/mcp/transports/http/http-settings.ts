import type { McpAuthenticate, McpBearerAuthOptions } from '../../auth/auth-options.interface.js';
import type { McpResolvedOptions } from '../../options/resolved-options.interface.js';

/**
 * The HTTP transports' view of the resolved options: their own settings and
 * the limits they enforce, flat. No default is applied here (they were, once,
 * in `resolveMcpOptions`).
 */
export interface McpHttpSettings {
  readonly path: string;
  readonly allowedOrigins: readonly string[];
  readonly allowedHosts: readonly string[];
  readonly keepAliveMs: number;
  readonly retryMs: number;
  readonly fastPath: boolean | 'auto';
  readonly auth?: McpBearerAuthOptions;
  readonly authenticate?: McpAuthenticate;
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly sessionIdleMs: number;
  readonly eventBufferSize: number;
  readonly maxQueuedEvents: number;
  readonly maxSessionsPerPrincipal: number;
}

/** DI token of the HTTP transports' settings. */
export const MCP_HTTP_SETTINGS = 'McpWarden:http-settings';

export function httpSettingsOf({ http, limits }: McpResolvedOptions): McpHttpSettings {
  return {
    ...http,
    maxBodyBytes: limits.maxBodyBytes,
    maxSessions: limits.maxSessions,
    sessionIdleMs: limits.sessionIdleMs,
    eventBufferSize: limits.eventBufferSize,
    maxQueuedEvents: limits.maxQueuedEvents,
    maxSessionsPerPrincipal: limits.maxSessionsPerPrincipal,
  };
}
