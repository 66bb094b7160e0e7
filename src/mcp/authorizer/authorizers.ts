import type { Authorizer, AuthorizerContext, AuthorizerDecision } from './authorizer.interface.js';

const ALLOW: AuthorizerDecision = Object.freeze({ kind: 'allow' });

/**
 * Builders for common authorizers, and `decide()` to evaluate one.
 *
 * @example
 * McpModule.forRoot({
 *   name: 'notes', version: '1.0.0',
 *   authorizer: Authorizers.allowlist(['search_notes']),
 *   authorizerSource: 'configured',
 * });
 */
export const Authorizers = {
  /** Allows every call. */
  allowAll(): Authorizer {
    return () => ALLOW;
  },

  /** Denies every call with `reason` (default `'denied'`). */
  denyAll(reason = 'denied'): Authorizer {
    const decision: AuthorizerDecision = Object.freeze({ kind: 'deny', reason });
    return () => decision;
  },

  /** Allows only the listed names; denies the rest with `'not_allowlisted'`. */
  allowlist(names: readonly string[]): Authorizer {
    const allowed = new Set(names);
    const deny: AuthorizerDecision = Object.freeze({ kind: 'deny', reason: 'not_allowlisted' });
    return (name) => (allowed.has(name) ? ALLOW : deny);
  },

  /**
   * Evaluates `authorizer`, treating `undefined` as allow. Async authorizers are
   * awaited; a throw propagates so the caller can fail closed.
   */
  async decide(
    authorizer: Authorizer | undefined,
    name: string,
    args: object,
    context: AuthorizerContext,
  ): Promise<AuthorizerDecision> {
    if (!authorizer) return ALLOW;
    return authorizer(name, args as Record<string, unknown>, context);
  },
};
