import {
  HOOKS_IN_PLAY,
  isMcpRouteHook,
  registeredHooks,
  symbolProperty,
  type FastifyHook,
  type FastifyRouteContext,
} from './fastify-route-context.js';
import { hookSource, KNOWN_HOOKS, type KnownHook } from './nest-fastify.hooks.js';

/** Whether an MCP route's requests may skip Fastify, and on what condition, or why not. */
export type FastifyVerdict =
  | { readonly fast: true; readonly inert: () => boolean }
  | { readonly fast: false; readonly reason: string };

/** What is read of Nest's Fastify adapter: the fields its own hooks test. */
type Adapter = Readonly<Record<string, unknown>>;

/**
 * Judges one MCP route from the context Fastify routed a request with: its requests may skip
 * Fastify only when every hook that would run for them is one of the adapter's or middie's
 * (nest-fastify.hooks.ts), and only while those do nothing (the returned condition, checked per
 * request). Anything else in front (a plugin's hook, a route's own hook, a request logger, a
 * handler timeout) keeps the route on Fastify. `ownHook` is the binder's own `preParsing` hook:
 * only other MCP servers' may come before it. `known`: the hooks known (a spec passes its own).
 */
export function judgeFastifyRoute(
  context: FastifyRouteContext,
  adapter: Adapter,
  ownHook: FastifyHook,
  known: ReadonlyMap<string, KnownHook> = KNOWN_HOOKS,
): FastifyVerdict {
  const server = context.server;
  if (!server) return off('the route has no Fastify instance');
  if ('level' in ((server as { log?: object }).log ?? {})) return off('Fastify logs requests');
  if ((context.handlerTimeout ?? 0) > 0) return off('the route has a handler timeout');
  const fields = new Set<string>();
  const flags = new Set<symbol>();
  for (const kind of HOOKS_IN_PLAY) {
    const registered = registeredHooks(server, kind);
    const running = context[kind]?.length ?? 0;
    if (!registered) return off(`the ${kind} hooks cannot be read`);
    // The context runs the instance's hooks, then the route's own: none of the latter.
    if (running !== registered.length) return off(`the route has ${kind} hooks of its own`);
    for (const hook of registered) {
      if (kind === 'preParsing') {
        // Ours hijacks the request: those after it never run for an MCP route. Another MCP
        // server's hook in front passes this server's requests on untouched.
        if (hook === ownHook) break;
        if (isMcpRouteHook(hook)) continue;
        return off(`a preParsing hook runs before the MCP routes' own`);
      }
      const inert = inertWhile(known.get(hookSource(hook)), server, adapter);
      if (!inert) return off(`an ${kind} hook runs in front (${hook.name || 'anonymous'})`);
      for (const field of inert.fields) fields.add(field);
      if (inert.flag) flags.add(inert.flag);
    }
  }
  return { fast: true, inert: inertWhileUnset(adapter, [...fields], server, [...flags]) };
}

/* What a known hook tests: adapter fields, or an instance flag, unset while it does nothing. */
interface InertWhile {
  readonly fields: readonly string[];
  readonly flag?: symbol;
}

/* The fields or flag a known hook tests (none for one that never acts here), or null. */
function inertWhile(
  known: KnownHook | undefined,
  server: object,
  adapter: Adapter,
): InertWhile | null {
  if (!known) return null;
  if (known.flag) {
    // Middie's flag is set on the instance a middleware is added to: read through the route's.
    const flag = symbolProperty(server, known.flag);
    return flag ? { fields: [], flag: flag.key } : null;
  }
  // A hook that hands its work to adapter methods is known only with those methods as listed.
  for (const [name, source] of Object.entries(known.methods ?? {})) {
    const method = adapter[name];
    if (typeof method !== 'function' || hookSource(method as FastifyHook) !== source) return null;
  }
  const fields = known.fields ?? [];
  return fields.every((field) => field in adapter) ? { fields } : null;
}

/* Per request: every field and flag still unset (CORS not enabled since, no middleware added). */
function inertWhileUnset(
  adapter: Adapter,
  fields: readonly string[],
  server: object,
  flags: readonly symbol[],
): () => boolean {
  const instance = server as Readonly<Record<symbol, unknown>>;
  return () => {
    for (const field of fields) if (adapter[field]) return false;
    for (const flag of flags) if (instance[flag]) return false;
    return true;
  };
}

/** A verdict that keeps the route on Fastify, saying why. */
export function off(reason: string): FastifyVerdict {
  return { fast: false, reason };
}
