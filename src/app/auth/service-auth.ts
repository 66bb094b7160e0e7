import type { McpHttpOptions, McpLimits } from '../../index.js';

/**
 * Bearer auth for the service, from the environment: `OAUTH_ISSUER` and
 * `OAUTH_AUDIENCE` (this server's canonical URL, e.g. https://notes.example.com/mcp)
 * turn it on; `OAUTH_JWKS_URI` overrides the issuer's published keys. With
 * neither, the service is unauthenticated, which the boot check allows on
 * loopback only.
 */
export function serviceAuthFromEnv(env: NodeJS.ProcessEnv = process.env): McpHttpOptions['auth'] {
  const issuer = env.OAUTH_ISSUER?.trim();
  const audience = env.OAUTH_AUDIENCE?.trim();
  if (!issuer && !audience) return undefined;
  if (!issuer || !audience) {
    throw new Error('OAUTH_ISSUER and OAUTH_AUDIENCE must be set together');
  }
  const jwksUri = env.OAUTH_JWKS_URI?.trim();
  return jwksUri ? { issuer, audience, jwksUri } : { issuer, audience };
}

/**
 * The per-caller request budget, from `CALLS_PER_SECOND_PER_PRINCIPAL` (for
 * deployments whose callers are trusted batch jobs, or for load tests); the
 * framework's default otherwise.
 */
export function serviceLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): McpLimits {
  const rate = Number(env.CALLS_PER_SECOND_PER_PRINCIPAL);
  return Number.isFinite(rate) && rate > 0 ? { callsPerSecondPerPrincipal: rate } : {};
}

/**
 * The names the service answers to besides loopback: `ALLOWED_HOSTS` and
 * `ALLOWED_ORIGINS` (comma-separated), and the host of `OAUTH_AUDIENCE`, which
 * is this server's public URL by definition. Anything else is refused (DNS
 * rebinding protection).
 */
export function serviceHostsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Pick<McpHttpOptions, 'allowedHosts' | 'allowedOrigins'> {
  const list = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  const hosts = list(env.ALLOWED_HOSTS);
  const audience = env.OAUTH_AUDIENCE?.trim();
  if (audience && URL.canParse(audience)) hosts.push(new URL(audience).host);
  return { allowedHosts: hosts, allowedOrigins: list(env.ALLOWED_ORIGINS) };
}
