/** Which MCP endpoint a route serves. */
export type McpRouteKind = 'streamable' | 'sse' | 'messages';

/*
 * How the adapters' route binders recognise the MCP routes on Fastify: each
 * carries its kind under this key in its route config (Nest hands a handler's
 * `__fastify_route_config__` metadata to Fastify as the route's `config`).
 */
export const MCP_ROUTE_CONFIG_KEY = 'mcpWarden';

const FASTIFY_ROUTE_CONFIG_METADATA = '__fastify_route_config__';

/** The server a route belongs to, beside its kind (see `McpServerMark.routeId`). */
export const MCP_ROUTE_SERVER_KEY = 'mcpWardenServer';

/** Marks a controller method as the MCP route of `kind`, served by the server `routeId`. */
export function markMcpRoute(method: object, kind: McpRouteKind, routeId: string): void {
  Reflect.defineMetadata(
    FASTIFY_ROUTE_CONFIG_METADATA,
    { [MCP_ROUTE_CONFIG_KEY]: kind, [MCP_ROUTE_SERVER_KEY]: routeId },
    method,
  );
}
