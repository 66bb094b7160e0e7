import type { IncomingMessage } from 'node:http';

/** What the bypass needs of an Express 5 app: its router's layers. */
interface ExpressLayer {
  handle: ((req: IncomingMessage, res: unknown, next: (error?: unknown) => void) => void) & {
    name: string;
  };
  route?: { path: unknown; methods: Record<string, boolean> };
}

/** The names body-parser gives its middleware (and Nest's `useBodyParser` reuses). */
const PARSERS = new Set(['jsonParser', 'urlencodedParser', 'textParser', 'rawParser']);

/**
 * Keeps the app's body parsers off the MCP routes on Express. Nest installs
 * its parsers in front of every route, with a 100 kB default that would cut
 * tool arguments and answer errors in the app's own shape; the MCP endpoints
 * read their bodies themselves, bounded, after their Origin, auth and session
 * checks. The parsers stay as they are for every other route.
 *
 * Express matches routes only after the parsers ran, so the MCP routes are
 * recognised by their full paths (global prefix included), read off the
 * router once the routes are registered: the every-method route ending in the
 * Streamable path, and the POST route ending in `/messages` beside a GET
 * route ending in `/sse`.
 */
export function bypassExpressBodyParsers(app: unknown, streamablePath: string): string[] {
  const stack = (app as { router?: { stack?: ExpressLayer[] } }).router?.stack;
  if (!Array.isArray(stack)) return [];
  const paths = mcpRoutePaths(stack, streamablePath);
  if (paths.size === 0) return [];
  for (const layer of stack) {
    if (layer.route || !PARSERS.has(layer.handle?.name)) continue;
    const parse = layer.handle;
    const bypassing = function (req: IncomingMessage, res: unknown, next: () => void) {
      if (paths.has(pathnameOf(req))) return next();
      return parse(req, res, next);
    };
    // Keep the name: Nest checks it to decide whether a parser is already installed.
    Object.defineProperty(bypassing, 'name', { value: parse.name });
    layer.handle = bypassing as ExpressLayer['handle'];
  }
  return [...paths];
}

function mcpRoutePaths(stack: ExpressLayer[], streamablePath: string): Set<string> {
  const routes = stack.flatMap((layer) =>
    layer.route && typeof layer.route.path === 'string'
      ? [{ path: layer.route.path, methods: layer.route.methods }]
      : [],
  );
  const paths = new Set<string>();
  for (const route of routes) {
    if (servesEveryMethod(route.methods) && route.path.endsWith(streamablePath)) {
      paths.add(route.path);
    }
    if (route.methods.post && route.path.endsWith('/messages')) {
      const sse = route.path.slice(0, -'/messages'.length) + '/sse';
      if (routes.some((other) => other.path === sse && other.methods.get)) paths.add(route.path);
    }
  }
  return paths;
}

/* Nest's `@All()` registers each method on Express rather than `all`. */
function servesEveryMethod(methods: Record<string, boolean>): boolean {
  return methods._all === true || (methods.get && methods.post && methods.delete) === true;
}

function pathnameOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  // Express matches with or without one trailing slash; so does the bypass.
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
