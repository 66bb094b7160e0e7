import { McpTooManyRequestsError } from '../errors/protocol.errors.js';
import type { ResolvedMcpLimits } from '../limits/mcp-limits.interface.js';

/** How many live nonces a bounded nonce store keeps (memory and Redis alike). */
export interface McpNonceStoreBounds {
  /** Callers' nonces over all callers; the server's own entries have a bound of this size apart. */
  readonly capacity: number;
  /** One caller's share of `capacity`. */
  readonly perCaller: number;
}

/** The bounds of the built-in stores, from the resolved limits. */
export function nonceStoreBoundsOf(limits: ResolvedMcpLimits): McpNonceStoreBounds {
  return { capacity: limits.maxRequestStates, perCaller: limits.maxRequestStatesPerPrincipal };
}

/*
 * The refusals, worded for the caller that gets them (-31429). Each says
 * whose bound it is, so a caller over its share knows waiting is its remedy,
 * and nothing names another caller.
 */

/** This caller holds its whole share of live states. */
export function callerShareFull(): McpTooManyRequestsError {
  return new McpTooManyRequestsError(
    'Too many requestStates in use by this caller: retry once earlier ones expire',
  );
}

/** Callers together hold every live state the server keeps. */
export function callerStatesFull(): McpTooManyRequestsError {
  return new McpTooManyRequestsError(
    'Too many requestStates in use on this server: retry once earlier ones expire',
  );
}

/** The server's own entries (webhook notices and links) are full. */
export function serverEntriesFull(): McpTooManyRequestsError {
  return new McpTooManyRequestsError('Too many webhook notices and links outstanding');
}
