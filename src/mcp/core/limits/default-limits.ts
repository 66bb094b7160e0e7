import type { McpLimits, ResolvedMcpLimits } from './mcp-limits.interface.js';

/**
 * The default of every bound.
 * @publicApi
 */
export const DEFAULT_LIMITS: ResolvedMcpLimits = Object.freeze({
  maxBodyBytes: 4 * 1024 * 1024,
  maxLineBytes: 4 * 1024 * 1024,
  maxSessions: 1_000,
  sessionIdleMs: 30 * 60_000,
  maxInFlightPerConnection: 256,
  maxPendingPerConnection: 64,
  maxPendingTotal: 10_000,
  eventBufferSize: 256,
  maxQueuedEvents: 1_000,
  toolTimeoutMs: 60_000,
  authorizerTimeoutMs: 5_000,
  maxSessionsPerPrincipal: 100,
  maxPendingPerPrincipal: 256,
  callsPerSecondPerPrincipal: 1_000,
  maxRequestStates: 100_000,
  maxRequestStatesPerPrincipal: 1_000,
  maxListensPerPrincipal: 32,
  maxTasks: 10_000,
  maxTasksPerPrincipal: 256,
  maxBufferedBodyBytes: 64 * 1024 * 1024,
  bodyTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  maxArgumentKeys: 10_000,
  maxArgumentDepth: 32,
  maxArgumentArrayLength: 10_000,
  maxResultBytes: 16 * 1024 * 1024,
  maxPromptChars: 1_000,
});

/** The limits with defaults applied; non-positive or non-numeric values fall back to the default. */
export function resolveLimits(limits: McpLimits = {}): ResolvedMcpLimits {
  const resolved = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof McpLimits)[]) {
    const value = limits[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) resolved[key] = value;
  }
  return resolved;
}
