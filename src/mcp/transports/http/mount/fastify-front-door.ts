import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { rememberClientAddress } from '../../../core/http/client-address.js';
import { requestPath } from '../../../core/http/request-path.js';
import { servesMethod } from './fast-path.installer.js';
import { symbolProperty } from './fastify-route-context.js';
import type { McpRouteKind } from './mcp-route.marker.js';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** One MCP route that requests may reach without Fastify. */
export interface FastRoute {
  readonly kind: McpRouteKind;
  /** False while a hook in front would act (CORS enabled, a middleware added, shutting down). */
  readonly inert: () => boolean;
  /**
   * A view of a Node request as the route's Fastify request, whose `ip` applies `trustProxy`;
   * none where no proxy is trusted, and the socket's address stands, as on Fastify.
   */
  readonly view?: new (raw: IncomingMessage) => { readonly ip?: unknown };
  readonly serve: (kind: McpRouteKind, req: object, res: object) => Promise<void>;
}

/** What is read of a Fastify instance to stand in front of it. */
interface FastifyInstance {
  readonly routing?: unknown;
}

/* One per HTTP server, shared by the binders of every MCP server in the app. */
const doors = new WeakMap<Server, FastifyFrontDoor | string>();

/**
 * The request listener in front of Fastify's: a request to a fast MCP route's exact path goes
 * to its endpoint, everything else to Fastify. It stands only where the server's one listener
 * is Fastify's own router (`fastify.routing`: no `serverFactory` wrapper to skip), Fastify
 * rewrites no URL (`rewriteUrl` would route the path elsewhere), and Fastify's closing state can
 * be read: while Fastify closes, every request is its own (its 503).
 */
export class FastifyFrontDoor {
  private readonly routes = new Map<string, FastRoute>();

  /** The server's door, or why there is none. */
  static of(server: Server | undefined, instance: unknown): FastifyFrontDoor | string {
    if (!server || typeof server.listeners !== 'function') return 'no Node HTTP server';
    const known = doors.get(server);
    if (known) return known;
    const door = FastifyFrontDoor.open(server, instance as FastifyInstance);
    doors.set(server, door);
    return door;
  }

  private static open(server: Server, fastify: FastifyInstance): FastifyFrontDoor | string {
    const listeners = server.listeners('request') as RequestListener[];
    if (listeners.length !== 1 || listeners[0] !== fastify.routing) {
      return "the server's request listener is not Fastify's own router";
    }
    const options = symbolProperty(fastify, 'fastify.options')?.value as
      { rewriteUrl?: unknown; trustProxy?: unknown } | undefined;
    if (!options) return "Fastify's options cannot be read";
    if (options.rewriteUrl) return 'Fastify rewrites URLs (rewriteUrl)';
    const state = symbolProperty(fastify, 'fastify.state')?.value as
      { closing?: boolean } | undefined;
    if (!state || typeof state.closing !== 'boolean') return "Fastify's state cannot be read";
    const trustsProxy = Boolean(options.trustProxy);
    return new FastifyFrontDoor(server, listeners[0] as RequestListener, state, trustsProxy);
  }

  private constructor(
    server: Server,
    private readonly fastify: RequestListener,
    state: { readonly closing?: boolean },
    /** Fastify's `trustProxy` (the option its request class is built from) is set. */
    readonly trustsProxy: boolean,
  ) {
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const route = this.routes.size > 0 ? this.routes.get(requestPath(req)) : undefined;
      if (route && !state.closing && route.inert()) this.serveFast(route, req, res);
      else this.fastify(req, res);
    });
  }

  /** Serves `path` (a route's registered path) ahead of Fastify from now on. */
  add(path: string, route: FastRoute): void {
    this.routes.set(path, route);
  }

  private serveFast(route: FastRoute, req: IncomingMessage, res: ServerResponse): void {
    // The SSE pair's routes take one method each: Fastify answers the others.
    if (!servesMethod(route.kind, req.method)) return this.fastify(req, res);
    // Fastify's own `request.ip`, its `trustProxy` applied.
    if (route.view) rememberClientAddress(req, new route.view(req).ip);
    void route.serve(route.kind, req, res);
  }
}
