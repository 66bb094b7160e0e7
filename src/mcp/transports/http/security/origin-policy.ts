/** Host names every local deployment accepts (DNS-rebinding protection keeps the rest out). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`), lower-cased. */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * Decides which `Host` and `Origin` values may reach the MCP routes: the
 * loopback names (any port) plus what the operator listed. A request with no
 * `Origin` is not from a browser and passes; a present but foreign one is
 * refused, as is an `Origin` of `null`.
 */
export class OriginPolicy {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(allowedHosts: readonly string[], allowedOrigins: readonly string[]) {
    this.hosts = new Set([...LOOPBACK_HOSTS, ...allowedHosts.map((host) => host.toLowerCase())]);
    this.origins = new Set(
      allowedOrigins.map((origin) => origin.toLowerCase().replace(/\/+$/, '')),
    );
  }

  /** The reason `host`/`origin` is refused, or undefined when both are allowed. */
  refusal(host: string | undefined, origin: string | undefined): string | undefined {
    if (!host || !this.allowsHost(host)) return 'Host not allowed';
    if (origin !== undefined && !this.allowsOrigin(origin)) return 'Origin not allowed';
    return undefined;
  }

  private allowsHost(host: string): boolean {
    const value = host.trim().toLowerCase();
    return this.hosts.has(value) || this.hosts.has(hostnameOf(value));
  }

  private allowsOrigin(origin: string): boolean {
    const value = origin.trim().toLowerCase().replace(/\/+$/, '');
    if (this.origins.has(value)) return true;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)
    );
  }
}
