import { messageShapeBounds } from '../../core/decoding/json-message.decoder.js';
import type { MessageShapeBounds } from '../../core/decoding/message-shape.scanner.js';
import type { ResolvedMcpLimits } from '../../core/limits/mcp-limits.interface.js';
import type {
  McpAuthenticationSettings,
  ResolvedHttpOptions,
} from '../../authentication/authentication-settings.interface.js';

/** The limits the HTTP transports enforce themselves. */
type HttpLimits = Pick<
  ResolvedMcpLimits,
  | 'maxBodyBytes'
  | 'maxSessions'
  | 'sessionIdleMs'
  | 'eventBufferSize'
  | 'maxQueuedEvents'
  | 'maxSessionsPerPrincipal'
  | 'maxBufferedBodyBytes'
  | 'bodyTimeoutMs'
  | 'headersTimeoutMs'
  | 'requestTimeoutMs'
>;

/**
 * The HTTP transports' view of the resolved options: their own settings and
 * the limits they enforce, flat. No default is applied here (they were, once,
 * in `resolveMcpOptions`).
 */
export interface McpHttpSettings extends ResolvedHttpOptions, HttpLimits {
  /** The shape a body must keep to be parsed (from the argument and in-flight limits). */
  readonly shapeBounds: MessageShapeBounds;
}

export { MCP_HTTP_SETTINGS } from '../../core/http/http-settings.token.js';

export function httpSettingsOf({ http, limits }: McpAuthenticationSettings): McpHttpSettings {
  return {
    ...http,
    maxBodyBytes: limits.maxBodyBytes,
    maxSessions: limits.maxSessions,
    sessionIdleMs: limits.sessionIdleMs,
    eventBufferSize: limits.eventBufferSize,
    maxQueuedEvents: limits.maxQueuedEvents,
    maxSessionsPerPrincipal: limits.maxSessionsPerPrincipal,
    maxBufferedBodyBytes: limits.maxBufferedBodyBytes,
    bodyTimeoutMs: limits.bodyTimeoutMs,
    headersTimeoutMs: limits.headersTimeoutMs,
    requestTimeoutMs: limits.requestTimeoutMs,
    shapeBounds: messageShapeBounds(limits),
  };
}
