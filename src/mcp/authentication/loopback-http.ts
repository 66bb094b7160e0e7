/**
 * Whether `url` is plain HTTP on a loopback address: the one place an OAuth client here talks
 * to an issuer without TLS (development, tests).
 */
export function isLoopbackHttp(url: string): boolean {
  const parsed = new URL(url);
  return (
    parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)
  );
}
