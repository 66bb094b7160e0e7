import type { McpCoreSettings } from '../core/options/core-settings.interface.js';
import type { McpAuthenticate, McpBearerAuthOptions } from './auth-options.interface.js';

/** The HTTP transport's settings with every default applied. */
export interface ResolvedHttpOptions {
  /** The Streamable HTTP path, normalised to one leading slash and none trailing. */
  readonly path: string;
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
