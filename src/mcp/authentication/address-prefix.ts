import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { setBounded } from '../core/common/bounded-map.js';

const MAPPED = '::ffff:';

/**
 * How many leading bits of an IPv6 address one anonymous caller is counted by: a /64. An ISP
 * or hosting provider hands one customer at least a /64 (a home line, a VPS), and the
 * customer picks any address inside it, so keying a whole address would give one holder 2^64
 * budgets. Everyone inside one /64 shares a budget, as everyone behind one IPv4 NAT does.
 */
export const IPV6_QUOTA_PREFIX_BITS = 64;

/** The key every client address that is not an IP address shares (a proxy's `unknown`, say). */
export const UNPARSED_ADDRESS = '?';

/**
 * What an anonymous client address is counted by: an IPv4 address in its usual form; an
 * IPv4-mapped IPv6 address (`::ffff:203.0.113.5`, as a dual-stack socket or a proxy may write an
 * IPv4 client) as its IPv4 address, so the two spellings share a budget; any other IPv6 address
 * as its /64 (`2001:db8::/64`), however it is spelled (case, leading zeros, `::`, a zone id, an
 * IPv4 tail). A port after the address (`203.0.113.5:41000`, `[2001:db8::1]:41000`, as some
 * proxies forward it) is left out, so a caller does not get a budget per connection; anything
 * that is not an IP address at all shares one key. Parsed by ipaddr.js, which Express's and
 * Fastify's proxy-addr use to read the same addresses.
 */
export function addressPrefixOf(address: string): string {
  // The common cases first, on every request: IPv4 from the socket or the proxy, and IPv4 on a
  // dual-stack socket (a server listening on `::`, as `listen(port)` does, sees every IPv4 client
  // as `::ffff:a.b.c.d`).
  if (isIPv4(address)) return address;
  if (address.startsWith(MAPPED) && isIPv4(address.slice(MAPPED.length))) {
    return address.slice(MAPPED.length);
  }
  // IPv4 with the port a proxy may add: a new port per connection would only miss the cache.
  const ipv4 = WITH_PORT.exec(address)?.[2];
  if (ipv4 !== undefined && isIPv4(ipv4)) return ipv4;
  const known = prefixes.get(address);
  if (known !== undefined) return known;
  const prefix = prefixOf(address);
  // Parsing costs some 5 µs, on every request of an IPv6 client: the last ones are kept. A
  // caller cycling through addresses only misses, at that cost, and evicts the oldest.
  setBounded(prefixes, address, prefix, KEPT_PREFIXES);
  return prefix;
}

const KEPT_PREFIXES = 1_024;
const prefixes = new Map<string, string>();

/* `a.b.c.d:port` and `[v6]:port`: the address without its port. */
const WITH_PORT = /^(?:\[([^\]]+)\]|(\d+\.\d+\.\d+\.\d+)):\d+$/;

function prefixOf(written: string): string {
  const withPort = WITH_PORT.exec(written);
  const address = withPort ? (withPort[1] ?? withPort[2]!) : written;
  if (!ipaddr.isValid(address)) return UNPARSED_ADDRESS;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const { parts } = parsed as ipaddr.IPv6;
  const groups = IPV6_QUOTA_PREFIX_BITS / 16;
  const prefix = parts.map((part, index) => (index < groups ? part : 0));
  return `${new ipaddr.IPv6(prefix).toString()}/${IPV6_QUOTA_PREFIX_BITS}`;
}
