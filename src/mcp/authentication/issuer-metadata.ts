/** How long a failed metadata look-up is remembered before the next request may try again. */
const RETRY_AFTER_MS = 10_000;
const FETCH_TIMEOUT_MS = 5_000;

/*
 * The metadata URLs of an issuer, most specific first: RFC 8414's
 * authorization server metadata, then OpenID Connect discovery. For an issuer
 * with a path, RFC 8414 puts the well-known segment before the path.
 */
function metadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
    new URL(`${path}/.well-known/openid-configuration`, url.origin),
  ];
}

/**
 * Finds an issuer's `jwks_uri` from its published metadata, once; a failure is
 * remembered for a short while, so a broken issuer costs one look-up per
 * interval rather than one per request.
 */
export class IssuerJwksLocator {
  private found?: Promise<URL>;
  private failedAt = 0;

  constructor(private readonly issuer: string) {}

  jwksUri(): Promise<URL> {
    if (this.found) return this.found;
    if (Date.now() - this.failedAt < RETRY_AFTER_MS) {
      return Promise.reject(new Error(`metadata of ${this.issuer} is unavailable`));
    }
    this.found = this.lookUp().catch((error: unknown) => {
      this.found = undefined;
      this.failedAt = Date.now();
      throw error;
    });
    return this.found;
  }

  private async lookUp(): Promise<URL> {
    for (const url of metadataUrls(this.issuer)) {
      const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch(
        () => undefined,
      );
      if (!response?.ok) continue;
      const metadata = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      // RFC 8414 §3.3: the metadata must name the issuer it was fetched for.
      if (metadata.issuer !== this.issuer || typeof metadata.jwks_uri !== 'string') continue;
      return new URL(metadata.jwks_uri);
    }
    throw new Error(`no usable metadata with a jwks_uri for ${this.issuer}`);
  }
}
