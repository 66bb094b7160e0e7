/** Which MCP endpoint a route serves. */
export type McpRouteKind = 'streamable' | 'sse' | 'messages';

/*
 * How the adapters' route binders recognise the MCP routes on Fastify: each
 * carries its kind under this key in its route config (Nest hands a handler's
 * `__fastify_route_config__` metadata to Fastify as the route's `config`).
 */
export const MCP_ROUTE_CONFIG_KEY = 'mcpWarden';

const FASTIFY_ROUTE_CONFIG_METADATA = '__fastify_route_config__';

/** Marks a controller method as the MCP route of `kind`. */
export function markMcpRoute(method: object, kind: McpRouteKind): void {
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { [MCP_ROUTE_CONFIG_KEY]: kind }, method);
}
