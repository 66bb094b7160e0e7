/** A Fastify hook, as registered. */
export type FastifyHook = (...args: never[]) => unknown;

/** The hook kinds that run for an MCP request on Fastify before its `preParsing` stage or after. */
export const HOOKS_IN_PLAY = [
  'onRequest',
  'preParsing',
  'onResponse',
  'onRequestAbort',
  'onTimeout',
] as const;
export type HookKind = (typeof HOOKS_IN_PLAY)[number];

/**
 * What the Fastify fast path reads of the context Fastify keeps for each route: the hooks it
 * runs for the route's requests (`null` for a kind it has none of), the route's request class
 * and the Fastify instance (encapsulation context) the route was registered on.
 */
export type FastifyRouteContext = {
  readonly [kind in HookKind]: readonly FastifyHook[] | null;
} & {
  readonly handlerTimeout?: number;
  /** The class Fastify builds the route's requests from: its `ip` getter applies `trustProxy`. */
  readonly Request?: { readonly prototype: object };
  readonly server?: object;
};

/*
 * Fastify keeps these under symbols of its own, not exported: the route's context on each
 * request (`fastify.context`), and each instance's hooks as registered (`fastify.hooks`; the
 * context holds bound copies, which neither compare nor print as the originals). They are
 * looked up by description, once per route: a Fastify without them leaves the fast path off.
 */
const CONTEXT = 'fastify.context';
const HOOKS = 'fastify.hooks';

/** The context Fastify routed `request` with, or `undefined` where it cannot be read. */
export function routeContextOf(request: object): FastifyRouteContext | undefined {
  const context = symbolProperty(request, CONTEXT)?.value;
  if (typeof context !== 'object' || context === null) return undefined;
  const hooks = context as Record<string, unknown>;
  const shaped = HOOKS_IN_PLAY.every(
    (kind) => kind in hooks && (hooks[kind] === null || Array.isArray(hooks[kind])),
  );
  return shaped ? (context as FastifyRouteContext) : undefined;
}

/**
 * The hooks of one kind as registered on `instance` (the originals of the context's bound
 * copies), or `undefined` where they cannot be read.
 */
export function registeredHooks(
  instance: object,
  kind: HookKind,
): readonly FastifyHook[] | undefined {
  const hooks = symbolProperty(instance, HOOKS)?.value as Record<string, unknown> | undefined;
  const list = hooks?.[kind];
  return Array.isArray(list) ? (list as FastifyHook[]) : undefined;
}

/**
 * The symbol-keyed property of `instance` with this description, found along its prototype
 * chain (a plugin's instance inherits its parent's), with its key for later reads.
 */
export function symbolProperty(
  instance: object,
  description: string,
): { key: symbol; value: unknown } | undefined {
  for (let at: object | null = instance; at; at = Object.getPrototypeOf(at) as object | null) {
    const key = Object.getOwnPropertySymbols(at).find((s) => s.description === description);
    if (key) return { key, value: (instance as Record<symbol, unknown>)[key] };
  }
  return undefined;
}

/* Marks the `preParsing` hooks of the MCP route binders (one per server). */
const MCP_ROUTE_HOOK = Symbol('mcp-warden.fastify.route-hook');

/** Marks `hook` as an MCP route binder's: it serves its server's routes and passes the rest on. */
export function markMcpRouteHook<T extends FastifyHook>(hook: T): T {
  return Object.assign(hook, { [MCP_ROUTE_HOOK]: true });
}

export function isMcpRouteHook(hook: FastifyHook): boolean {
  return (hook as { [MCP_ROUTE_HOOK]?: boolean })[MCP_ROUTE_HOOK] === true;
}
