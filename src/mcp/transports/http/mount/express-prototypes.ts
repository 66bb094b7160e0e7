import { IncomingMessage, ServerResponse, type Server } from 'node:http';

/** What is read of an Express app: the prototypes it gives its requests and responses. */
interface ExpressApp {
  request?: unknown;
  response?: unknown;
}

/*
 * Where a Node server keeps its `IncomingMessage` and `ServerResponse` options: under symbols of
 * its own, described by these names (Node 20, 22 and 24). They are the public way to choose the
 * classes (`http.createServer({ IncomingMessage, ServerResponse })`), but Nest creates the server
 * with neither and offers no way to pass them, so they are set on the server it created.
 */
const REQUEST_OPTION = 'IncomingMessage';
const RESPONSE_OPTION = 'ServerResponse';

/*
 * The V8 whose change of an object's prototype costs what buildOnExpressPrototypes() saves:
 * V8 12 (Node 22, and 23). On Node 24 (V8 13.6) the change costs Express's requests little; on
 * Node 20 (V8 11.3) an object built on Express's prototypes, whose own prototypes V8 keeps as
 * dictionaries, is slower through Node's own parsing than one changed later (docs/performance.md,
 * "Requests through Express").
 */
const SWAPPING_V8 = 12;

/*
 * Requests Express never sees: an `upgrade` (a WebSocket gateway on the same port) or a
 * `CONNECT`. Built on Express's prototypes they would carry its getters, and code written for
 * Node's own request that sets `req.query` or `req.path` would throw, on Node 22 alone.
 */
const OUTSIDE_EXPRESS = ['upgrade', 'connect'] as const;

/**
 * Has the app's server build each request and response on the Express app's own prototypes
 * (`app.request`, `app.response`), so that Express's `Object.setPrototypeOf` of every request and
 * response, as it starts handling them, finds the prototype already in place and changes nothing.
 *
 * On Node 22 that change of prototype gave each object a hidden class of its own, and every
 * property Express, the router and Nest then set on it missed its inline cache: about two thirds
 * of what a request through Express cost (docs/http.md, "Requests through Express"). The objects
 * are what Express makes of them anyway, from their construction on: each still an
 * `http.IncomingMessage` or `http.ServerResponse`. Only on the V8 that pays for the change, and
 * (the route binder decides) only where Express handles the MCP routes.
 *
 * Only a server that still uses Node's own classes is changed: classes an app chose are its own.
 * Nor is one with an `upgrade` or `connect` listener (a Nest gateway binds its own before the
 * routes are): the class serves those requests too. Returns whether the server was changed.
 */
export function buildOnExpressPrototypes(
  server: Server | undefined,
  app: unknown,
  v8 = process.versions.v8,
): boolean {
  const { request, response } = (app ?? {}) as ExpressApp;
  if (Number.parseInt(v8, 10) !== SWAPPING_V8) return false;
  if (!server || !isObject(request) || !isObject(response)) return false;
  if (OUTSIDE_EXPRESS.some((event) => server.listenerCount(event) > 0)) return false;
  const keys = Object.getOwnPropertySymbols(server);
  const requestClass = keys.find((key) => key.description === REQUEST_OPTION);
  const responseClass = keys.find((key) => key.description === RESPONSE_OPTION);
  if (!requestClass || !responseClass) return false;
  const options = server as unknown as Record<symbol, unknown>;
  if (options[requestClass] !== IncomingMessage || options[responseClass] !== ServerResponse) {
    return false;
  }
  options[requestClass] = builtOn(IncomingMessage, request);
  options[responseClass] = builtOn(ServerResponse, response);
  return true;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/*
 * A constructor for Node's server (which calls it with `new`) whose instances are built by
 * `base` on `prototype`: `Reflect.construct` gives the new object the prototype of its third
 * argument, and runs `base` as its constructor, whether Node declares it as a function or a
 * class. That argument is a function of its own, never called: V8 caches the objects' first
 * hidden class on it, and the `new` of `Built` would cache another there each time.
 */
function builtOn(base: new (...args: never[]) => object, prototype: object): unknown {
  function Shape(): void {}
  Shape.prototype = prototype;
  function Built(...args: unknown[]): object {
    return Reflect.construct(base, args, Shape) as object;
  }
  return Built;
}
