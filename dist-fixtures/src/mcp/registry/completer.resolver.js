import { McpDefinitionError } from './registry.errors.js';
/**
 * Resolves the completers of a decorator's options against the provider
 * instance: a string names a method of that instance, bound to it.
 */
export function resolveCompleter(ref, instance, source) {
    if (ref === undefined || typeof ref === 'function')
        return ref;
    const method = instance[ref];
    if (typeof method !== 'function') {
        throw new McpDefinitionError('completer', source, `no method named "${ref}" on the provider`);
    }
    return method.bind(instance);
}
/** `resolveCompleter` over a map of argument or variable names. */
export function resolveCompleters(refs, instance, source) {
    if (!refs)
        return undefined;
    return Object.fromEntries(Object.entries(refs).map(([name, ref]) => [name, resolveCompleter(ref, instance, source)]));
}
//# sourceMappingURL=completer.resolver.js.map