import type { Server } from 'node:http';

/** The limits the server's own timeouts are set from. */
export interface ServerTimeoutLimits {
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/**
 * Bounds what a slow client can hold on every route of the HTTP server,
 * the app's own included, since heads and bodies arrive before routing:
 * - a request head that trickles in holds a socket and its parser: the
 *   server's `headersTimeout` (Node's default is 60 s) is lowered to
 *   `limits.headersTimeoutMs`;
 * - a body that trickles in on a route whose reader has no deadline (an app
 *   route's body parser) holds a socket for as long as the server lets a
 *   request take: its `requestTimeout` (Node's default is 5 min; Fastify
 *   sets none) is lowered to `limits.requestTimeoutMs`, but never below a
 *   head's and an MCP body's own deadlines together, so an MCP upload gets
 *   its own 408 first.
 * A timeout already lower stays as the app set it.
 */
export function boundServerTimeouts(server: Server | undefined, limits: ServerTimeoutLimits): void {
  if (!server) return;
  if (
    typeof server.headersTimeout === 'number' &&
    server.headersTimeout > limits.headersTimeoutMs
  ) {
    server.headersTimeout = limits.headersTimeoutMs;
  }
  const request = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs + limits.bodyTimeoutMs);
  // 0 is no timeout at all (Fastify's default).
  const current = server.requestTimeout;
  if (typeof current === 'number' && (current === 0 || current > request)) {
    server.requestTimeout = request;
  }
}
