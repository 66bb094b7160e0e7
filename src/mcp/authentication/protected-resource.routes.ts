import type { IncomingMessage, ServerResponse } from 'node:http';
import { rawExchange } from '../core/http/raw-exchange.js';
import { sendJson } from '../core/http/send-json.js';
import type { McpBearerAuthOptions } from './auth-options.interface.js';
import {
  PRM_PATH,
  protectedResourceMetadata,
  protectedResourcePath,
} from './protected-resource.metadata.js';

interface HttpAdapterLike {
  getType(): string;
  getInstance(): unknown;
  get(path: unknown, handler: (req: object, res: object) => void): unknown;
}

/**
 * Serves the protected resource metadata (RFC 9728) at the origin's
 * well-known path, and at that path followed by the resource's path. It sits
 * at the root, outside any global prefix, because RFC 9728 forms the URL from
 * the resource's origin; the app's middleware and CORS still apply (browser
 * clients fetch it cross-origin).
 *
 * With several servers in one app, each serves its document only at its own
 * resource's URL (its audience's path, or else `endpointPath`),
 * so one server's issuer and scopes never answer for another.
 */
export function serveProtectedResourceMetadata(
  adapter: HttpAdapterLike,
  auth: McpBearerAuthOptions | undefined,
  endpointPath?: string,
): void {
  const handler = (req: object, res: object) => {
    const raw = rawExchange(req, res);
    sendMetadata(raw.req, raw.res, auth);
  };
  if (endpointPath !== undefined) {
    const own = endpointPath === '/' ? '' : endpointPath.replace(/\/+$/, '');
    adapter.get(auth ? protectedResourcePath(auth) : `${PRM_PATH}${own}`, handler);
    return;
  }
  if (adapter.getType() === 'fastify') {
    adapter.get(PRM_PATH, handler);
    adapter.get(`${PRM_PATH}/*`, handler);
  } else {
    adapter.get(new RegExp(`^${PRM_PATH.replace(/\./g, '\\.')}(/.*)?$`), handler);
  }
}

function sendMetadata(
  req: IncomingMessage,
  res: ServerResponse,
  auth: McpBearerAuthOptions | undefined,
): void {
  sendJson(res, 200, protectedResourceMetadata(req, auth), { 'Cache-Control': 'max-age=300' });
}
