import type { McpCompleter, McpCompleterRef } from './interfaces/mcp-context.interface.js';
import { McpDefinitionError } from './registry.errors.js';

/**
 * Resolves the completers of a decorator's options against the provider
 * instance: a string names a method of that instance, bound to it.
 */
export function resolveCompleter(
  ref: McpCompleterRef | undefined,
  instance: object,
  source: string,
): McpCompleter | undefined {
  if (ref === undefined || typeof ref === 'function') return ref;
  const method = (instance as Record<string, unknown>)[ref];
  if (typeof method !== 'function') {
    throw new McpDefinitionError('completer', source, `no method named "${ref}" on the provider`);
  }
  return method.bind(instance) as McpCompleter;
}

/** `resolveCompleter` over a map of argument or variable names. */
export function resolveCompleters(
  refs: Record<string, McpCompleterRef> | undefined,
  instance: object,
  source: string,
): Record<string, McpCompleter> | undefined {
  if (!refs) return undefined;
  return Object.fromEntries(
    Object.entries(refs).map(([name, ref]) => [name, resolveCompleter(ref, instance, source)!]),
  );
}
