import type { McpCoreSettings } from '../core/options/core-settings.interface.js';
import type { McpAuthenticate, McpBearerAuthOptions } from './auth-options.interface.js';

/** The HTTP transport's settings with every default applied. */
export interface ResolvedHttpOptions {
  /** The Streamable HTTP path, normalised to one leading slash and none trailing. */
  readonly path: string;
  /** Where the 2024-11-05 SSE pair sits: `''` (the root) or one leading slash, none trailing. */
  readonly ssePairPath: string;
  readonly allowedOrigins: readonly string[];
  readonly allowedHosts: readonly string[];
  readonly keepAliveMs: number;
  readonly retryMs: number;
  readonly fastPath: boolean | 'auto';
  readonly auth?: McpBearerAuthOptions;
  readonly authenticate?: McpAuthenticate;
}

/** The resolved options as authentication and the layers above it read them. */
export interface McpAuthenticationSettings extends McpCoreSettings {
  readonly http: ResolvedHttpOptions;
}
