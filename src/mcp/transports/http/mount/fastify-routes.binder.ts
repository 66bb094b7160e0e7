import type { IncomingMessage } from 'node:http';
import { rememberClientAddress } from '../../../core/http/client-address.js';
import type { McpRoutePaths } from './express-routes.binder.js';
import type { FastifyFastPath } from './fastify-fast-path.js';
import { markMcpRouteHook } from './fastify-route-context.js';
import {
  MCP_ROUTE_CONFIG_KEY,
  MCP_ROUTE_SERVER_KEY,
  type McpRouteKind,
} from './mcp-route.marker.js';

interface FastifyLikeRequest {
  routeOptions?: {
    config?: Record<string, unknown>;
    url?: string;
    method?: string | readonly string[];
  };
}

type PreParsing = (
  req: FastifyLikeRequest,
  reply: object,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
) => void;

const KINDS = new Set<unknown>(['streamable', 'sse', 'messages']);
/** The methods a Streamable HTTP route must take; an every-method route takes them all. */
const STREAMABLE_METHODS = ['GET', 'POST', 'DELETE'];

/**
 * Serves the MCP routes Nest registered on Fastify directly, from their
 * `preParsing` stage: after the `onRequest` stage, where the app's middleware
 * and CORS run, and before Fastify's content-type parsers (the endpoints read
 * their own bodies, bounded, after their Host/Origin, auth and session checks)
 * and Nest's handler (whose global guards, interceptors, pipes and filters are
 * the app's REST routes', not the protocol's).
 *
 * The routes are recognised by the kind their handlers carry in Fastify's
 * route config. Nest 11's `FastifyAdapter.all()` drops that config (its
 * per-method routes keep it), so an every-method route without a kind whose
 * path ends in the Streamable path is the Streamable endpoint, as the Express
 * binder recognises it. With several servers, each hook serves only the
 * routes whose config names its server (`routeId`), and that every-method
 * route only at its exact path. A fast path, when given, learns each MCP
 * route from its first request here (fastify-fast-path.ts).
 */
export function bindFastifyRoutes(
  instance: unknown,
  paths: McpRoutePaths,
  routeId: string,
  serve: (kind: McpRouteKind, req: object, res: object) => Promise<void>,
  fastPath?: FastifyFastPath,
): boolean {
  const fastify = instance as { addHook?: (name: 'preParsing', hook: PreParsing) => unknown };
  if (typeof fastify.addHook !== 'function') return false;
  const trimmed = paths.streamable.replace(/^\/+|\/+$/g, '');
  const own = { suffix: trimmed ? `/${trimmed}` : '', exact: paths.exact, routeId };
  const hook: PreParsing = markMcpRouteHook((req, reply, payload, done) => {
    const route = req.routeOptions;
    const kind = routeKind(route, own);
    if (!kind) return done(null, payload);
    // The reply is hijacked and answered here; the lifecycle goes no further.
    if (fastPath?.learn(req, route?.url, kind, hook)) {
      // The route goes fast from now on, and its later requests reach the handlers as Node's
      // own: this one does too, so a guard sees one kind of request on the route, the first
      // included (a modern-era call needs no session, so it can be the first). The client
      // address stays the one Fastify resolved.
      const raw = (req as { raw?: IncomingMessage }).raw;
      if (raw) {
        rememberClientAddress(raw, (req as { ip?: unknown }).ip);
        return void serve(kind, raw, reply);
      }
    }
    void serve(kind, req, reply);
  });
  fastify.addHook('preParsing', hook);
  return true;
}

interface OwnRoutes {
  readonly suffix: string;
  readonly exact: boolean;
  readonly routeId: string;
}

function routeKind(route: FastifyLikeRequest['routeOptions'], own: OwnRoutes): McpRouteKind | null {
  const kind = route?.config?.[MCP_ROUTE_CONFIG_KEY];
  if (KINDS.has(kind)) {
    return route?.config?.[MCP_ROUTE_SERVER_KEY] === own.routeId ? (kind as McpRouteKind) : null;
  }
  const methods = route?.method;
  const everyMethod =
    Array.isArray(methods) && STREAMABLE_METHODS.every((method) => methods.includes(method));
  const url = route?.url?.replace(/\/+$/, '');
  const ours = own.exact ? url === own.suffix : url?.endsWith(own.suffix);
  return everyMethod && ours ? 'streamable' : null;
}
