import type { ResolvedMcpLimits } from '../limits/mcp-limits.interface.js';
import type { McpTransportKind } from '../protocol/transport-kind.js';
import type { McpNonceStore } from '../stores/nonce-store.interface.js';

/**
 * The resolved options every layer may read. The module resolves every option once and
 * provides the result as `MCP_OPTIONS`; each layer injects it typed as its own slice, which
 * names only types of that layer or below, so reading an option never imports upward
 * (docs/architecture.md, "Options"). `McpResolvedOptions` is the sum of the slices.
 */
export interface McpCoreSettings {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
  readonly transport: McpTransportKind;
  readonly elicitationTimeoutMs: number;
  readonly stateSecret?: string;
  readonly nonceStore?: McpNonceStore;
  readonly cluster?: { readonly redisUrl: string; readonly keyPrefix: string };
  readonly cacheTtlMs: number;
  /** Whether the network boot check is armed: always, unless `requireAuthorization: false`. */
  readonly requireAuthorization: boolean;
  readonly pageSize: number;
  readonly limits: ResolvedMcpLimits;
}
