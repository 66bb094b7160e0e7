import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { routePath } from '../../../core/http/request-path.js';
import type { McpRouteKind } from './mcp-route.marker.js';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The opt-in fast path (`http.fastPath`): requests to the MCP routes' exact
 * paths go to their endpoints before the HTTP adapter sees them; everything
 * else goes to the adapter as before. Express costs about half of Node's own
 * request rate (it swaps the request's and response's prototypes on every
 * request); this skips it, and with it the app's Express middleware and CORS.
 */
export function installFastPath(
  server: Server | undefined,
  routes: ReadonlyMap<string, McpRouteKind>,
  serve: (kind: McpRouteKind, req: object, res: object) => Promise<void>,
): boolean {
  if (!server || typeof server.listeners !== 'function' || routes.size === 0) return false;
  const adapter = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const kind = routes.get(routePath(req));
    if (kind && servesMethod(kind, req.method)) void serve(kind, req, res);
    else for (const listener of adapter) listener(req, res);
  });
  return true;
}

/** The SSE pair is two routes of one method each; the Streamable endpoint answers every method. */
export function servesMethod(kind: McpRouteKind, method: string | undefined): boolean {
  return kind === 'streamable' || method === (kind === 'sse' ? 'GET' : 'POST');
}
