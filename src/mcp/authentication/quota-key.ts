import type { IncomingMessage } from 'node:http';
import { clientAddressOf } from '../core/http/client-address.js';
import { addressPrefixOf } from './address-prefix.js';
import type { McpPrincipal } from './principal.interface.js';
import { principalKey } from './principal-key.js';

/**
 * The key a per-caller quota is kept under: the principal, or for an
 * anonymous caller the client's address as the host framework resolved it
 * (`clientAddressOf`: behind a proxy the app trusts, the forwarded address;
 * otherwise the socket's), so anonymous callers share a quota per address,
 * not one for all of them. An IPv6 address counts by its /64, which one
 * holder picks addresses from freely, and an IPv4-mapped one as its IPv4
 * address (`addressPrefixOf`). `fallback` keys what has neither (a local
 * in-process or stdio connection).
 */
export function quotaKeyOf(
  principal: McpPrincipal | undefined,
  httpRequest: IncomingMessage | undefined,
  fallback: string,
): string {
  if (principal) return `p:${principalKey(principal)}`;
  const address = clientAddressOf(httpRequest);
  return address ? `a:${addressPrefixOf(address)}` : `c:${fallback}`;
}
