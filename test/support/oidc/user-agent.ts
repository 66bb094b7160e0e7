/**
 * A minimal user agent for the authorization endpoint: it follows redirects by hand, carrying the
 * issuer's cookies between hops, until the issuer sends it to the client's redirect URI. It never
 * requests the redirect URI itself; it returns what the issuer put there.
 */

export interface AuthorizationResponse {
  /** The redirect URI with the issuer's response parameters, exactly as the issuer sent it. */
  redirect: URL;
  code: string;
  state?: string;
  /** RFC 9207 `iss` response parameter, when present. */
  iss?: string;
}

/** The issuer answered the authorization request with an error at the redirect URI. */
export class AuthorizationError extends Error {
  constructor(
    readonly error: string,
    readonly description: string | undefined,
    readonly redirect: URL,
  ) {
    super(`authorization failed: ${error}${description ? ` (${description})` : ''}`);
    this.name = 'AuthorizationError';
  }
}

const MAX_HOPS = 12;

function isRedirectTarget(location: URL, redirectUri: URL): boolean {
  return location.origin === redirectUri.origin && location.pathname === redirectUri.pathname;
}

class CookieJar {
  readonly #cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key, raw = ''] = attribute.split('=');
        const k = key.trim().toLowerCase();
        if (k === 'max-age') return Number(raw) <= 0;
        if (k === 'expires') return Date.parse(raw) <= Date.now();
        return false;
      });
      if (expired || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header(): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Follows an authorization request URL (the issuer's authorization endpoint with its query) to
 * the redirect URI named in it. Throws `AuthorizationError` when the issuer redirects back with
 * `error=...`, and a plain error when a hop does not redirect (an error page, say).
 */
export async function followAuthorization(
  authorizationUrl: string | URL,
): Promise<AuthorizationResponse> {
  const start = new URL(authorizationUrl);
  const redirectParam = start.searchParams.get('redirect_uri');
  if (!redirectParam) throw new TypeError('the authorization URL has no redirect_uri');
  const redirectUri = new URL(redirectParam);
  const jar = new CookieJar();

  let next = start;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (next.origin !== start.origin) {
      throw new Error(`the issuer redirected off its origin to ${next.origin}${next.pathname}`);
    }
    const cookie = jar.header();
    const response = await fetch(next, {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
    });
    jar.store(response);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      const body = await response.text();
      throw new Error(
        `authorization stopped at ${next.pathname} with HTTP ${response.status}: ${body.slice(0, 500)}`,
      );
    }
    await response.body?.cancel();
    const target = new URL(location, next);
    if (isRedirectTarget(target, redirectUri)) return readResponse(target);
    next = target;
  }
  throw new Error(`authorization did not reach the redirect URI in ${MAX_HOPS} hops`);
}

function readResponse(redirect: URL): AuthorizationResponse {
  const params = redirect.searchParams;
  const error = params.get('error');
  if (error) {
    throw new AuthorizationError(error, params.get('error_description') ?? undefined, redirect);
  }
  const code = params.get('code');
  if (!code) throw new Error(`the redirect carries neither code nor error: ${redirect.href}`);
  return {
    redirect,
    code,
    state: params.get('state') ?? undefined,
    iss: params.get('iss') ?? undefined,
  };
}
