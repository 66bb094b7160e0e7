import type {
  McpAuthenticate,
  McpBearerAuthOptions,
} from '../authentication/auth-options.interface.js';
import type {
  Authorizer,
  AuthorizerSource,
  McpTransportKind,
} from '../authorization/authorizer.interface.js';
import type { McpServerInfo } from '../definitions/display/server-info.factory.js';
import type { ResolvedMcpLimits } from '../core/limits/mcp-limits.interface.js';
import type { McpNonceStore } from '../revisions/2026-07-28/multi-round-trip/nonce-store.interface.js';
import type {
  McpApprovalsConsoleOptions,
  McpApprovalsWebhookOptions,
} from '../approvals/operator/approvals-options.interface.js';

/** Four-eyes approvals with every default applied (docs/operator-approvals.md). */
export interface ResolvedApprovalsOptions {
  /** The scope an operator must hold (`approvals.console.scope`, default `mcp:approve`). */
  readonly scope: string;
  /** Where the console is served (`approvals.console.path`, default `/approvals`). */
  readonly path: string;
  readonly maxPending: number;
  /** How long a handshake-era call waits for an operator before it answers pending. */
  readonly answerWithinMs: number;
  readonly console?: McpApprovalsConsoleOptions;
  readonly webhook?: McpApprovalsWebhookOptions;
}

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

/**
 * Every module option with its default applied, resolved once when the module
 * is created. Every part of the framework injects this (`MCP_OPTIONS`), never
 * the raw options, so a default lives in exactly one place.
 */
export interface McpResolvedOptions {
  readonly name: string;
  readonly version: string;
  /** What `initialize` announces: name, version and the optional display fields, checked once. */
  readonly serverInfo: McpServerInfo;
  readonly instructions?: string;
  readonly transport: McpTransportKind;
  readonly authorizer?: Authorizer;
  readonly authorizerSource: AuthorizerSource;
  readonly readAuthorizer?: Authorizer;
  readonly elicitationTimeoutMs: number;
  readonly stateSecret?: string;
  readonly nonceStore?: McpNonceStore;
  readonly cluster?: { readonly redisUrl: string; readonly keyPrefix: string };
  readonly cacheTtlMs: number;
  /** Whether the network boot check is armed (the option, else off only in development/test). */
  readonly requireAuthorization: boolean;
  readonly pageSize: number;
  readonly limits: ResolvedMcpLimits;
  readonly http: ResolvedHttpOptions;
  readonly approvals: ResolvedApprovalsOptions;
}
