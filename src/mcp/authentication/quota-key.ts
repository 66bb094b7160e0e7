import type { IncomingMessage } from 'node:http';
import { clientAddressOf } from '../core/http/client-address.js';
import type { McpPrincipal } from './principal.interface.js';
import { principalKey } from './principal-key.js';

/**
 * The key a per-caller quota is kept under: the principal, or for an
 * anonymous caller the client's address as the host framework resolved it
 * (`clientAddressOf`: behind a proxy the app trusts, the forwarded address;
 * otherwise the socket's), so anonymous callers share a quota per address,
 * not one for all of them. `fallback` keys what has neither (a local
 * in-process or stdio connection).
 */
export function quotaKeyOf(
  principal: McpPrincipal | undefined,
  httpRequest: IncomingMessage | undefined,
  fallback: string,
): string {
  if (principal) return `p:${principalKey(principal)}`;
  const address = clientAddressOf(httpRequest);
  return address ? `a:${address}` : `c:${fallback}`;
}
