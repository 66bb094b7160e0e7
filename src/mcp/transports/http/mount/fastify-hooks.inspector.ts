import {
  HOOKS_IN_PLAY,
  isMcpRouteHook,
  registeredHooks,
  symbolProperty,
  type FastifyHook,
  type FastifyRouteContext,
} from './fastify-route-context.js';

/** Whether an MCP route's requests may skip Fastify, and on what condition, or why not. */
export type FastifyVerdict =
  | { readonly fast: true; readonly inert: () => boolean }
  | { readonly fast: false; readonly reason: string };

/** What is read of Nest's Fastify adapter: the fields its own hooks test. */
type Adapter = Readonly<Record<string, unknown>>;

/*
 * The request hooks Nest's Fastify adapter puts in front of every route, and the adapter field
 * each one tests: with the field unset, the hook only calls `done()`. Recognised by their
 * source, as the Express binder recognises the adapter's layer; a field the adapter lacks
 * (another Nest) leaves the hook unknown, and the fast path off.
 */
const ADAPTER_HOOKS: readonly { readonly source: string; readonly field?: string }[] = [
  { source: 'this.onRequestHook', field: 'onRequestHook' },
  // The 503 while Nest shuts down (`return503OnClosing`).
  { source: 'this.return503OnClosing', field: 'isShuttingDown' },
  { source: 'this.corsHook', field: 'corsHook' },
  // `enableCsrfProtection()` and `useSecurityHeaders()`.
  { source: 'this.securityHook', field: 'securityHook' },
  // A request whose target middleware cannot match: a fast request's path is a route's own.
  { source: 'isRoutableRequestTarget' },
  // Errors of custom versioning, raised while Fastify routes: a fast request is not routed.
  { source: 'versionExtractorErrors' },
  { source: 'this.onResponseHook', field: 'onResponseHook' },
];

/* Middie (Nest's middleware on Fastify) runs nothing until a middleware is added to its instance. */
const MIDDIE = 'runMiddie';
const MIDDIE_HAS_MIDDLEWARES = 'fastify-middie-has-middlewares';

/**
 * Judges one MCP route from the context Fastify routed a request with: its requests may skip
 * Fastify only when every hook that would run for them is one of the adapter's or middie's, and
 * only while those do nothing (the returned condition, checked per request). Anything else in
 * front (a plugin's hook, a route's own hook, a request logger, a handler timeout) keeps the
 * route on Fastify. `ownHook` is the binder's own `preParsing` hook, which must come first.
 */
export function judgeFastifyRoute(
  context: FastifyRouteContext,
  adapter: Adapter,
  ownHook: FastifyHook,
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
      const inert = inertWhile(hook, server, adapter);
      if (!inert) return off(`an ${kind} hook runs in front (${hook.name || 'anonymous'})`);
      if (inert.field) fields.add(inert.field);
      if (inert.flag) flags.add(inert.flag);
    }
  }
  return { fast: true, inert: inertWhileUnset(adapter, [...fields], server, [...flags]) };
}

/* What a known hook tests: an adapter field or an instance flag, unset while it does nothing. */
interface InertWhile {
  readonly field?: string;
  readonly flag?: symbol;
}

/* The field or flag a known hook tests, `{}` for one that never acts here, null for one not known. */
function inertWhile(hook: FastifyHook, server: object, adapter: Adapter): InertWhile | null {
  if (hook.name === MIDDIE) {
    // The flag is set on the instance a middleware is added to.
    const flag = symbolProperty(server, MIDDIE_HAS_MIDDLEWARES);
    return flag ? { flag: flag.key } : null;
  }
  const source = Function.prototype.toString.call(hook);
  const known = ADAPTER_HOOKS.find((candidate) => source.includes(candidate.source));
  if (!known) return null;
  if (!known.field) return {};
  return known.field in adapter ? { field: known.field } : null;
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

function off(reason: string): FastifyVerdict {
  return { fast: false, reason };
}
