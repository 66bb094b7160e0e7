import { McpWardenError } from '../core/errors/mcp-warden.error.js';
import { JsonRpcErrorCode } from '../core/protocol/error-codes.constants.js';
import type { McpPrincipal } from './principal.interface.js';

/** Whether `principal` holds every scope in `needed` (no principal holds none). */
export function hasScopes(needed: readonly string[], principal: McpPrincipal | undefined): boolean {
  if (needed.length === 0) return true;
  return principal !== undefined && needed.every((scope) => principal.scopes.includes(scope));
}

/**
 * A call the caller's scopes do not cover, over HTTP: the transport answers
 * it with 403 and a step-up challenge naming `scopes` (where the response has
 * not started streaming; otherwise this JSON-RPC error is the answer).
 */
export class McpInsufficientScopeError extends McpWardenError {
  constructor(
    tool: string,
    readonly scopes: readonly string[],
  ) {
    super(JsonRpcErrorCode.AuthorizationRequired, `authorization_required: ${tool}`, {
      error: 'insufficient_scope',
      tool,
      scope: scopes.join(' '),
    });
  }

  /** Whether a JSON-RPC error object is this refusal; its needed scopes if so. */
  static scopesOf(error: unknown): string[] | undefined {
    const { code, data } = (error ?? {}) as { code?: unknown; data?: Record<string, unknown> };
    if (code !== JsonRpcErrorCode.AuthorizationRequired || data?.error !== 'insufficient_scope') {
      return undefined;
    }
    return typeof data.scope === 'string' ? data.scope.split(' ').filter(Boolean) : [];
  }
}
