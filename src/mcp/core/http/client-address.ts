import type { IncomingMessage } from 'node:http';

/* Each request's client address as its host framework resolved it, by the Node request. */
const resolved = new WeakMap<IncomingMessage, string>();

/**
 * Records the client's address for `raw` as the host framework resolved it,
 * with the app's own proxy trust: Express's `req.ip` (the `trust proxy`
 * setting), Fastify's `request.ip` (the `trustProxy` option). Anything but a
 * non-empty string is ignored: the socket's peer address stands. So is the
 * socket's own address, which needs no record (most requests: no proxy).
 */
export function rememberClientAddress(raw: IncomingMessage, address: unknown): void {
  if (typeof address === 'string' && address !== '' && address !== raw.socket?.remoteAddress) {
    resolved.set(raw, address);
  }
}

/**
 * The client's address for an HTTP request (the Node request or the
 * adapter's): the one its framework resolved, else the socket's peer. No
 * header is read here, so with no proxy trusted a forged `X-Forwarded-For`
 * changes nothing; with one trusted, the framework reads the forwarded
 * address, past the proxies it trusts only.
 */
export function clientAddressOf(httpRequest: object | undefined): string | undefined {
  if (!httpRequest) return undefined;
  const raw = (httpRequest as { raw?: IncomingMessage }).raw ?? (httpRequest as IncomingMessage);
  const remembered = resolved.get(raw);
  if (remembered) return remembered;
  const ip = (httpRequest as { ip?: unknown }).ip;
  return typeof ip === 'string' && ip !== '' ? ip : raw.socket?.remoteAddress;
}
