import type { IncomingMessage } from 'node:http';

/** The path a request was sent to, without its query (`originalUrl` where Express keeps it). */
export function requestPath(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The path as Express matches routes: with or without one trailing slash. */
export function routePath(req: IncomingMessage): string {
  const path = requestPath(req);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
