import ipaddr from 'ipaddr.js';

/**
 * How many leading bits of an IPv6 address one anonymous caller is counted by: a /64. An ISP
 * or hosting provider hands one customer at least a /64 (a home line, a VPS), and the
 * customer picks any address inside it, so keying a whole address would give one holder 2^64
 * budgets. Everyone inside one /64 shares a budget, as everyone behind one IPv4 NAT does.
 */
export const IPV6_QUOTA_PREFIX_BITS = 64;

/**
 * What an anonymous client address is counted by: an IPv4 address as is; an IPv4-mapped IPv6
 * address (`::ffff:203.0.113.5`, as a dual-stack socket or a proxy may write an IPv4 client)
 * as its IPv4 address, so the two spellings share a budget; any other IPv6 address as its /64
 * (`2001:db8::/64`), however it is spelled (case, leading zeros, `::`, a zone id, an IPv4
 * tail). Anything that is not an IP address is kept as is. Parsed by ipaddr.js, which Express's
 * and Fastify's proxy-addr use to read the same addresses.
 */
export function addressPrefixOf(address: string): string {
  // The common case first: IPv4 from the socket or the proxy.
  if (!address.includes(':')) return address;
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const { parts } = parsed as ipaddr.IPv6;
  const groups = IPV6_QUOTA_PREFIX_BITS / 16;
  const prefix = parts.map((part, index) => (index < groups ? part : 0));
  return `${new ipaddr.IPv6(prefix).toString()}/${IPV6_QUOTA_PREFIX_BITS}`;
}
