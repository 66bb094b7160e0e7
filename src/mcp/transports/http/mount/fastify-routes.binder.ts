import { MCP_ROUTE_CONFIG_KEY, type McpRouteKind } from './mcp-route.marker.js';

interface FastifyLikeRequest {
  routeOptions?: { config?: Record<string, unknown> };
}

type PreParsing = (
  req: FastifyLikeRequest,
  reply: object,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
) => void;

const KINDS = new Set<unknown>(['streamable', 'sse', 'messages']);

/**
 * Serves the MCP routes Nest registered on Fastify directly, from their
 * `preParsing` stage: after the `onRequest` stage, where the app's middleware
 * and CORS run, and before Fastify's content-type parsers (the endpoints read
 * their own bodies, bounded, after their Host/Origin, auth and session checks)
 * and Nest's handler (whose global guards, interceptors, pipes and filters are
 * the app's REST routes', not the protocol's). The routes are recognised by
 * the kind their handlers carry in Fastify's route config.
 */
export function bindFastifyRoutes(
  instance: unknown,
  serve: (kind: McpRouteKind, req: object, res: object) => Promise<void>,
): boolean {
  const fastify = instance as { addHook?: (name: 'preParsing', hook: PreParsing) => unknown };
  if (typeof fastify.addHook !== 'function') return false;
  fastify.addHook('preParsing', (req, reply, payload, done) => {
    const kind = req.routeOptions?.config?.[MCP_ROUTE_CONFIG_KEY];
    // The reply is hijacked and answered here; the lifecycle goes no further.
    if (KINDS.has(kind)) void serve(kind as McpRouteKind, req, reply);
    else done(null, payload);
  });
  return true;
}
