import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from './principal.interface.js';
import { principalKey } from './principal-key.js';

/**
 * The key a per-caller quota is kept under: the principal, or for an
 * anonymous caller the client's address (so anonymous callers share a quota
 * per address, not one for all of them). `fallback` keys what has neither (a
 * local in-process or stdio connection).
 */
export function quotaKeyOf(
  principal: McpPrincipal | undefined,
  httpRequest: IncomingMessage | undefined,
  fallback: string,
): string {
  if (principal) return `p:${principalKey(principal)}`;
  const raw = (httpRequest as { raw?: IncomingMessage } | undefined)?.raw ?? httpRequest;
  const address = raw?.socket?.remoteAddress;
  return address ? `a:${address}` : `c:${fallback}`;
}
