import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { rememberClientAddress } from '../../../core/http/client-address.js';
import { requestPath } from '../../../core/http/request-path.js';
import { judgeFastifyRoute } from './fastify-hooks.inspector.js';
import { routeContextOf, type FastifyHook } from './fastify-route-context.js';
import type { McpRouteKind } from './mcp-route.marker.js';

type Serve = (kind: McpRouteKind, req: object, res: object) => Promise<void>;
type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** One MCP route that requests may reach without Fastify. */
interface FastRoute {
  readonly kind: McpRouteKind;
  /** False while a hook in front would act (CORS enabled, a middleware added, shutting down). */
  readonly inert: () => boolean;
  /** A view of a Node request as the route's Fastify request: its `ip` applies `trustProxy`. */
  readonly view?: new (raw: IncomingMessage) => { readonly ip?: unknown };
}

/** What the fast path needs of the binder: the adapter, its mode, and what it logs. */
export interface FastifyFastPathOptions {
  /** `true`: whatever runs in front; `'auto'`: only while nothing would be skipped. */
  readonly mode: true | 'auto';
  /** Nest's Fastify adapter: the fields its own hooks test. */
  readonly adapter: object;
  /** Another Nest versioning than by URI routes by header: a route is then more than its path. */
  readonly routesByHeader: boolean;
  readonly serve: Serve;
  readonly onJudged: (path: string, fast: boolean, reason?: string) => void;
}

/**
 * The fast path on Fastify (`http.fastPath`): requests to an MCP route's exact path go to its
 * endpoint before Fastify sees them, as on Express (see fast-path.installer.ts). Fastify still
 * routes the first request to each MCP route: from it the binder learns the route's path, and
 * the hooks Fastify runs for it (judgeFastifyRoute). In `'auto'` a route goes fast only when
 * those are the adapter's and middie's own, and only while they do nothing; any other hook, a
 * request logger or a handler timeout keeps it on Fastify. Until then, and whenever a request
 * does not qualify, the request goes to Fastify as before. docs/http.md, "The fast path".
 */
export class FastifyFastPath {
  private readonly routes = new Map<string, FastRoute>();
  private readonly judged = new Set<string>();
  private fastify?: RequestListener;

  constructor(private readonly options: FastifyFastPathOptions) {}

  /** Takes the server's request listener (Fastify's); false where there is not exactly one. */
  install(server: Server | undefined): boolean {
    if (!server || typeof server.listeners !== 'function') return false;
    const listeners = server.listeners('request') as RequestListener[];
    if (listeners.length !== 1) return false;
    const fastify = (this.fastify = listeners[0]!);
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const route = this.routes.size > 0 ? this.routes.get(requestPath(req)) : undefined;
      // A closing server's requests go to Fastify, which answers them as it closes.
      if (route && server.listening && route.inert()) this.serveFast(route, req, res);
      else fastify(req, res);
    });
    return true;
  }

  /**
   * From the binder's `preParsing` hook, for a request Fastify routed to the MCP route `url`
   * (its registered path): judges that route once, and adds it to the fast routes if it goes.
   */
  learn(request: object, url: string | undefined, kind: McpRouteKind, ownHook: FastifyHook): void {
    if (!this.fastify || !url || this.judged.has(url)) return;
    this.judged.add(url);
    // Only a path Fastify matches as written: no parameters, no wildcard.
    if (!url.startsWith('/') || /[:*]/.test(url)) return this.options.onJudged(url, false);
    const context = routeContextOf(request);
    const { mode, adapter, routesByHeader } = this.options;
    const verdict =
      mode === true
        ? { fast: true as const, inert: () => true }
        : routesByHeader
          ? { fast: false as const, reason: 'versioning routes by header' }
          : context
            ? judgeFastifyRoute(context, adapter as Record<string, unknown>, ownHook)
            : { fast: false as const, reason: "Fastify's route context cannot be read" };
    if (verdict.fast) {
      this.routes.set(url, {
        kind,
        inert: verdict.inert,
        view: context?.Request && viewOver(context.Request.prototype),
      });
    }
    this.options.onJudged(url, verdict.fast, verdict.fast ? undefined : verdict.reason);
  }

  private serveFast(route: FastRoute, req: IncomingMessage, res: ServerResponse): void {
    if (route.kind !== 'streamable' && req.method !== (route.kind === 'sse' ? 'GET' : 'POST')) {
      // The SSE pair's routes take one method each: Fastify answers the others (404).
      this.fastify!(req, res);
      return;
    }
    if (route.view) {
      // Fastify's own `request.ip` (its `trustProxy` applied); the socket's needs no record.
      const address = new route.view(req).ip;
      if (address !== req.socket?.remoteAddress) rememberClientAddress(req, address);
    }
    void this.options.serve(route.kind, req, res);
  }
}

/*
 * A class whose instances are the route's Fastify requests, reduced to the Node request
 * (`raw`) that Fastify's address getters read: one allocation of one shape per request.
 */
function viewOver(prototype: object): FastRoute['view'] {
  function View(this: { raw: IncomingMessage }, raw: IncomingMessage) {
    this.raw = raw;
  }
  View.prototype = prototype;
  return View as unknown as FastRoute['view'];
}
