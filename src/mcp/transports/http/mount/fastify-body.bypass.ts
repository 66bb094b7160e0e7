import { MCP_ROUTE_CONFIG_KEY } from './mcp-route.marker.js';

interface FastifyLikeRequest {
  routeOptions?: { config?: Record<string, unknown> };
  headers: Record<string, unknown>;
}

interface FastifyLike {
  addHook(
    name: 'preParsing',
    hook: (
      req: FastifyLikeRequest,
      reply: unknown,
      payload: unknown,
      done: (err: null, payload: unknown) => void,
    ) => void,
  ): unknown;
}

/*
 * Fastify decides whether to parse a body from the request's `content-type`,
 * `content-length` and `transfer-encoding` as `request.headers` shows them;
 * assigning `request.headers` only overlays them (the Node request's own
 * headers are untouched).
 */
const NO_BODY = {
  'content-type': undefined,
  'content-length': undefined,
  'transfer-encoding': undefined,
};

/**
 * Keeps Fastify's content-type parsers off the MCP routes: they read their
 * bodies themselves from the Node request, bounded, after their Origin, auth
 * and session checks. Other routes parse as before. The routes are recognised
 * by the marker their handlers carry in Fastify's route config.
 */
export function bypassFastifyBodyParsers(instance: unknown): boolean {
  const fastify = instance as Partial<FastifyLike>;
  if (typeof fastify.addHook !== 'function') return false;
  fastify.addHook('preParsing', (req, _reply, payload, done) => {
    if (req.routeOptions?.config?.[MCP_ROUTE_CONFIG_KEY] === true) {
      (req as { headers: unknown }).headers = NO_BODY;
    }
    done(null, payload);
  });
  return true;
}
