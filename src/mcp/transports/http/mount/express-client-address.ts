import type { IncomingMessage } from 'node:http';
import { rememberClientAddress } from '../../../core/http/client-address.js';
import type { McpRouteKind } from './mcp-route.marker.js';

type Serve = (kind: McpRouteKind, req: object, res: object) => Promise<void>;

/** What is read of an Express app: its settings and the prototype it gives its requests. */
interface ExpressApp {
  get?: (setting: string) => unknown;
  request?: object;
}

/**
 * `serve` for requests that skip Express (the fast path), remembering first
 * the client address Express would give `req.ip`: Express's own getter, run
 * on a view of the Node request over the app's request prototype, so the
 * app's `trust proxy` setting applies as on its routes. With no proxy
 * trusted (Express's default) the socket's address stands and nothing is
 * computed.
 */
export function withExpressClientAddress(app: unknown, serve: Serve): Serve {
  const express = app as ExpressApp;
  const proto = express.request;
  if (typeof express.get !== 'function' || !proto) return serve;
  return (kind, req, res) => {
    // Read per request: the app may set `trust proxy` after the routes are bound.
    if (express.get!('trust proxy')) {
      const raw = req as IncomingMessage;
      const view = Object.create(proto, {
        socket: { value: raw.socket },
        headers: { value: raw.headers },
      }) as { ip?: unknown };
      rememberClientAddress(raw, view.ip);
    }
    return serve(kind, req, res);
  };
}
