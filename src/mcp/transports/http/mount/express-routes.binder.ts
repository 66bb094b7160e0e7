import type { IncomingMessage } from 'node:http';
import { routePath } from '../../../core/http/request-path.js';
import {
  BODY_PARSER_NAMES,
  bypassExpressParsers,
} from '../../../core/http/express-parser-bypass.js';
import type { McpRouteKind } from './mcp-route.marker.js';

type Handler = ((req: IncomingMessage, res: unknown, next: (error?: unknown) => void) => void) & {
  name: string;
};

/** What the binder reads of an Express 5 app: its router's layers. */
interface ExpressLayer {
  handle: Handler;
  match?: (path: string) => unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
}

/**
 * How a binder recognises its server's routes. With one server, by their
 * endings (so a `RouterModule` or versioned prefix is found too); with
 * several, by their exact paths, global prefix included, since one server's
 * `/mcp` is the ending of another's `/admin/mcp`.
 */
export interface McpRoutePaths {
  /** The Streamable path, and the SSE pair's prefix (`''` for the root). */
  readonly streamable: string;
  readonly ssePair: string;
  readonly exact: boolean;
}

/**
 * Serves the MCP routes Nest registered on Express directly, and keeps the
 * app's body parsers off them:
 * - Nest installs its parsers in front of every route, with a 100 kB default
 *   that would cut tool arguments and answer errors in the app's own shape;
 *   the MCP endpoints read their bodies themselves, bounded, after their
 *   Host/Origin, auth and session checks. Other routes keep their parsers.
 * - Nest's route handler would run the app's global guards, interceptors,
 *   pipes and filters first; the app's middleware still runs (it sits in
 *   front of every route).
 * Express matches routes only after the parsers ran, so the MCP routes are
 * recognised by their full paths (global prefix included), read off the
 * router once Nest registered them: the every-method route ending in the
 * Streamable path, and the GET `…/sse` and POST `…/messages` pair.
 */
export function bindExpressRoutes(
  app: unknown,
  paths: McpRoutePaths,
  serve: (kind: McpRouteKind, req: object, res: object) => Promise<void>,
): ExpressBinding {
  const stack = (app as { router?: { stack?: ExpressLayer[] } }).router?.stack;
  const routes = Array.isArray(stack) ? mcpRoutes(stack, paths) : new Map();
  if (routes.size === 0) return { routes, middlewareInFront: true };
  const first = stack!.findIndex((layer) => layer.route && routes.has(layer.route.path as string));
  // Another route in front matters only if it would serve an MCP path itself.
  const middlewareInFront = stack!.slice(0, first).some((layer) =>
    layer.route
      ? // router 2.3 answers a match with its params, older ones with `true`.
        [...routes.keys()].some((path) => Boolean(layer.match?.(path)))
      : !BODY_PARSER_NAMES.has(layer.handle?.name) && !isAdapterHooks(layer),
  );
  for (const layer of stack!) {
    const kind = layer.route && routes.get(layer.route.path as string);
    if (kind) {
      // The route layer itself serves: the endpoint answers every method (405 for the rest),
      // so Express's per-method dispatch (one step per method Nest registered) is skipped.
      layer.handle = named(layer.handle.name, (req, res) => void serve(kind, req, res as object));
    }
  }
  bypassExpressParsers(app, (req) => routes.has(routePath(req)));
  return { routes, middlewareInFront };
}

/** The MCP routes found (full path → kind), and whether any app middleware runs in front of them. */
export interface ExpressBinding {
  readonly routes: ReadonlyMap<string, McpRouteKind>;
  readonly middlewareInFront: boolean;
}

/* The adapter's own request/response hook layer, a no-op unless Nest set hooks on it. */
function isAdapterHooks(layer: ExpressLayer): boolean {
  return layer.handle?.name === '' && /onRequestHook|onResponseHook/.test(String(layer.handle));
}

function mcpRoutes(stack: ExpressLayer[], paths: McpRoutePaths): Map<string, McpRouteKind> {
  const routes = stack.flatMap((layer) =>
    layer.route && typeof layer.route.path === 'string'
      ? [{ path: layer.route.path, methods: layer.route.methods }]
      : [],
  );
  const has = (path: string, method: string) =>
    routes.some((route) => route.path === path && route.methods[method]);
  const found = new Map<string, McpRouteKind>();
  const ours = (path: string, own: string) => (paths.exact ? path === own : path.endsWith(own));
  for (const { path, methods } of routes) {
    if (servesEveryMethod(methods) && ours(path, paths.streamable)) found.set(path, 'streamable');
    if (methods.post && ours(path, `${paths.ssePair}/messages`)) {
      const sse = path.slice(0, -'/messages'.length) + '/sse';
      if (has(sse, 'get')) found.set(path, 'messages').set(sse, 'sse');
    }
  }
  return found;
}

/* Nest's `@All()` registers each method on Express rather than `all`. */
function servesEveryMethod(methods: Record<string, boolean>): boolean {
  return methods._all === true || (methods.get && methods.post && methods.delete) === true;
}

function named(name: string, handler: (...args: Parameters<Handler>) => void): Handler {
  // Keep the name: Nest reads it to decide whether a parser is already installed.
  return Object.defineProperty(handler, 'name', { value: name }) as Handler;
}
