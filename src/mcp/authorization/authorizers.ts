import type { Authorizer, AuthorizerContext, AuthorizerDecision } from './authorizer.interface.js';
import { ALLOW, AUTHORIZER_FAILED, normalizeDecision } from './decision.normalizer.js';

/**
 * Builders for common authorizers, and `decide()` to evaluate one.
 *
 * @publicApi *
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
   * Evaluates `authorizer` the way the server does, treating `undefined` as
   * allow. It fails closed: a throw or rejection denies with
   * `authorizer_failed`, and anything that is not a well-formed decision denies
   * with `invalid_decision`. It never rejects.
   */
  async decide(
    authorizer: Authorizer | undefined,
    name: string,
    args: object,
    context: AuthorizerContext,
  ): Promise<AuthorizerDecision> {
    if (!authorizer) return ALLOW;
    try {
      return normalizeDecision(await authorizer(name, args as Record<string, unknown>, context));
    } catch {
      return { kind: 'deny', reason: AUTHORIZER_FAILED };
    }
  },
};
