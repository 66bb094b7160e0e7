import type { IncomingMessage } from 'node:http';

type Handler = ((req: IncomingMessage, res: unknown, next: (error?: unknown) => void) => void) & {
  name: string;
};

/** What the bypass reads of an Express 5 app: its router's layers. */
interface ExpressLayer {
  handle: Handler;
  route?: unknown;
}

/** The names body-parser gives its middleware (Nest's `useBodyParser` reuses them). */
export const BODY_PARSER_NAMES: ReadonlySet<string> = new Set([
  'jsonParser',
  'urlencodedParser',
  'textParser',
  'rawParser',
]);

/**
 * Keeps the app's body parsers (Nest's, and any `express.json()` the app
 * added) off the requests `skip` picks, and on every other request. Express
 * runs its parsers before it routes, and a parser reads the whole body with
 * no deadline: a route that reads its own body, bounded and after its cheap
 * checks, must be skipped by them or a slow uploader holds the socket for as
 * long as the server lets a request take. Each call wraps the parsers once
 * more; the names are kept, since Nest reads them to tell whether a parser
 * is installed. Returns whether the app had a router to wrap.
 */
export function bypassExpressParsers(
  app: unknown,
  skip: (req: IncomingMessage) => boolean,
): boolean {
  const stack = (app as { router?: { stack?: ExpressLayer[] } }).router?.stack;
  if (!Array.isArray(stack)) return false;
  for (const layer of stack) {
    if (layer.route || !BODY_PARSER_NAMES.has(layer.handle?.name)) continue;
    const parse = layer.handle;
    layer.handle = named(parse.name, (req, res, next) =>
      skip(req) ? next() : parse(req, res, next),
    );
  }
  return true;
}

function named(name: string, handler: (...args: Parameters<Handler>) => void): Handler {
  return Object.defineProperty(handler, 'name', { value: name }) as Handler;
}
