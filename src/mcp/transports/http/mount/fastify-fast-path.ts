import type { IncomingMessage, Server } from 'node:http';
import { FastifyFrontDoor, type FastRoute } from './fastify-front-door.js';
import { judgeFastifyRoute, off, type FastifyVerdict } from './fastify-hooks.inspector.js';
import { routeContextOf, type FastifyHook } from './fastify-route-context.js';
import type { McpRouteKind } from './mcp-route.marker.js';

/** What one MCP server's fast path needs of its binder. */
export interface FastifyFastPathOptions {
  /** `true`: whatever runs in front; `'auto'`: only while nothing would be skipped. */
  readonly mode: true | 'auto';
  /** Nest's Fastify adapter: the fields its own hooks test. */
  readonly adapter: object;
  /** Nest versioning other than by URI: routes are then chosen by header, not by path alone. */
  readonly routesByHeader: () => boolean;
  readonly serve: FastRoute['serve'];
  readonly onJudged: (path: string, fast: boolean, reason?: string) => void;
}

/**
 * The fast path on Fastify (`http.fastPath`) for one MCP server: requests to its routes' exact
 * paths go to their endpoints before Fastify sees them, as on Express (fast-path.installer.ts).
 * Fastify still routes the first request to each MCP route: from it the binder learns the
 * route's registered path and the hooks Fastify runs for it (judgeFastifyRoute). In `'auto'` a
 * route goes fast only when those are the adapter's and middie's own, and only while they do
 * nothing. Until then, and whenever a request does not qualify, it goes to Fastify as before.
 * The listener in front is the server's (fastify-front-door.ts). docs/http.md, "The fast path".
 */
export class FastifyFastPath {
  private readonly judged = new Set<string>();

  private constructor(
    private readonly door: FastifyFrontDoor,
    private readonly options: FastifyFastPathOptions,
  ) {}

  /** The fast path, or undefined (logged) where no listener can stand in front of Fastify. */
  static attach(
    server: Server | undefined,
    instance: unknown,
    options: FastifyFastPathOptions,
  ): FastifyFastPath | undefined {
    const door = FastifyFrontDoor.of(server, instance);
    if (typeof door === 'string') {
      options.onJudged('every MCP route', false, door);
      return undefined;
    }
    return new FastifyFastPath(door, options);
  }

  /**
   * From the binder's `preParsing` hook, for a request Fastify routed to the MCP route `url`
   * (its registered path): judges that route once, and opens the door to it if it goes fast.
   * True when this request opened it: the route's later requests reach it as Node's own.
   */
  learn(
    request: object,
    url: string | undefined,
    kind: McpRouteKind,
    ownHook: FastifyHook,
  ): boolean {
    if (!url || this.judged.has(url)) return false;
    this.judged.add(url);
    const context = routeContextOf(request);
    const verdict = this.judge(url, context, ownHook);
    const opens = verdict.fast && context?.Request !== undefined;
    if (opens) {
      this.door.add(url, {
        kind,
        inert: verdict.inert,
        view: this.door.trustsProxy ? viewOver(context.Request.prototype) : undefined,
        serve: this.options.serve,
      });
    }
    this.options.onJudged(url, verdict.fast, verdict.fast ? undefined : verdict.reason);
    return opens;
  }

  private judge(
    url: string,
    context: ReturnType<typeof routeContextOf>,
    ownHook: FastifyHook,
  ): FastifyVerdict {
    // Only a path Fastify matches as written: no parameters, no wildcard.
    if (!url.startsWith('/') || /[:*]/.test(url)) return off('not a fixed path');
    // The address: without the route's request class, `trustProxy` could not apply.
    if (!context?.Request) return off("Fastify's route context cannot be read");
    if (this.options.routesByHeader()) return off('Nest versioning routes by header');
    const adapter = this.options.adapter as Readonly<Record<string, unknown>>;
    if (this.options.mode === 'auto') return judgeFastifyRoute(context, adapter, ownHook);
    // `true` skips the hooks in front, not a shutdown: Nest's 503 still answers while it closes.
    return 'isShuttingDown' in adapter
      ? { fast: true, inert: () => !adapter.isShuttingDown }
      : { fast: true, inert: () => true };
  }
}

/*
 * A class whose instances are the route's Fastify requests reduced to the Node request (`raw`)
 * that Fastify's address getters read: one allocation of one shape per request.
 */
function viewOver(prototype: object): FastRoute['view'] {
  function View(this: { raw: IncomingMessage }, raw: IncomingMessage) {
    this.raw = raw;
  }
  View.prototype = prototype;
  return View as unknown as FastRoute['view'];
}
