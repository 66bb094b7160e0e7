/*
 * How the body-parser bypass recognises the MCP routes. On Fastify, every MCP
 * route carries this key in its route config (Nest passes a handler's
 * `__fastify_route_config__` metadata to Fastify as the route's `config`).
 */
export const MCP_ROUTE_CONFIG_KEY = 'mcpWarden';

const FASTIFY_ROUTE_CONFIG_METADATA = '__fastify_route_config__';

/** Marks a controller method as an MCP route (read by the Fastify side of the bypass). */
export function markMcpRoute(method: object): void {
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { [MCP_ROUTE_CONFIG_KEY]: true }, method);
}
