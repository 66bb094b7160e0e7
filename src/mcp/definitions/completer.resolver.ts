import type { McpCompleter, McpCompleterRef } from './interfaces/mcp-context.interface.js';
import { McpDefinitionError } from './registry.errors.js';

/**
 * Turns the name of a method on the provider into a completer calling it (on
 * the singleton, or on the instance built for the call of a request-scoped
 * provider); undefined when the provider has no such method.
 */
export type McpCompleterBinder = (method: string) => McpCompleter | undefined;

/**
 * Resolves the completers of a decorator's options against the provider: a
 * string names a method of the provider, bound through `bind`.
 */
export function resolveCompleter(
  ref: McpCompleterRef | undefined,
  bind: McpCompleterBinder,
  source: string,
): McpCompleter | undefined {
  if (ref === undefined || typeof ref === 'function') return ref;
  const completer = bind(ref);
  if (!completer) {
    throw new McpDefinitionError('completer', source, `no method named "${ref}" on the provider`);
  }
  return completer;
}

/** `resolveCompleter` over a map of argument or variable names. */
export function resolveCompleters(
  refs: Record<string, McpCompleterRef> | undefined,
  bind: McpCompleterBinder,
  source: string,
): Record<string, McpCompleter> | undefined {
  if (!refs) return undefined;
  return Object.fromEntries(
    Object.entries(refs).map(([name, ref]) => [name, resolveCompleter(ref, bind, source)!]),
  );
}
