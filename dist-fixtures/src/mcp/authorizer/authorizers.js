const ALLOW = Object.freeze({ kind: 'allow' });
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
    allowAll() {
        return () => ALLOW;
    },
    /** Denies every call with `reason` (default `'denied'`). */
    denyAll(reason = 'denied') {
        const decision = Object.freeze({ kind: 'deny', reason });
        return () => decision;
    },
    /** Allows only the listed names; denies the rest with `'not_allowlisted'`. */
    allowlist(names) {
        const allowed = new Set(names);
        const deny = Object.freeze({ kind: 'deny', reason: 'not_allowlisted' });
        return (name) => (allowed.has(name) ? ALLOW : deny);
    },
    /**
     * Evaluates `authorizer`, treating `undefined` as allow. Async authorizers are
     * awaited; a throw propagates so the caller can fail closed.
     */
    async decide(authorizer, name, args, context) {
        if (!authorizer)
            return ALLOW;
        return authorizer(name, args, context);
    },
};
//# sourceMappingURL=authorizers.js.map