import { randomUUID } from 'node:crypto';
import { SignJWT, base64url, importJWK, type JWTPayload } from 'jose';
import type { SigningKey } from './keys.js';

/** JWS algorithms `mintToken` can sign with (the RSA ones reuse the chosen key's material). */
export type MintAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'HS256';

/**
 * What `mintToken` puts in a token. Every claim has a default; `null` leaves that claim out.
 * `exp`/`nbf`/`iat`: a number is an absolute NumericDate (seconds since the epoch), a string a
 * jose time span relative to now (`'5m'`, `'-1h'`, `'30 s from now'`, `'2 minutes ago'`).
 */
export interface MintTokenOptions {
  /**
   * `'trusted'` (default): the issuer's published signing key, so the token is valid in every
   * respect you leave alone. `'untrusted'`: a key the issuer never publishes; by default the
   * token still names the trusted `kid`, so only the signature is wrong (a forgery).
   */
  key?: 'trusted' | 'untrusted';
  /** The header `kid`. Default: the trusted key's. Any other value is the "unknown kid" case. */
  kid?: string | null;
  /**
   * Default `'RS256'`. `'HS256'` signs with HMAC keyed by the issuer's public key PEM (the
   * classic RS/HS algorithm-confusion forgery), whatever `key` says.
   */
  alg?: MintAlgorithm;
  /** The header `typ`. Default `'at+jwt'` (RFC 9068), as the issuer's own access tokens. */
  typ?: string | null;
  iss?: string | null;
  aud?: string | string[] | null;
  sub?: string | null;
  /** Space-separated, as in an access token's `scope` claim. Default: no claim. */
  scope?: string | null;
  client_id?: string | null;
  exp?: number | string | null;
  nbf?: number | string | null;
  iat?: number | string | null;
  jti?: string | null;
  /** Extra claims, merged over the ones above (the times are set through `exp`/`nbf`/`iat`). */
  claims?: Record<string, unknown>;
}

export interface MintDefaults {
  trusted: SigningKey;
  untrusted: SigningKey;
  issuer: string;
  audience?: string;
  subject: string;
}

function applyClaims(options: MintTokenOptions, defaults: MintDefaults): JWTPayload {
  const payload: JWTPayload = {};
  const put = (name: string, value: unknown, fallback: unknown) => {
    if (value === null) return;
    const chosen = value === undefined ? fallback : value;
    if (chosen !== undefined) payload[name] = chosen;
  };
  put('iss', options.iss, defaults.issuer);
  const aud = options.aud === undefined ? defaults.audience : options.aud;
  if (aud === undefined) {
    throw new TypeError('mintToken needs `aud` (or start the issuer with `resources`)');
  }
  put('aud', options.aud, aud);
  put('sub', options.sub, defaults.subject);
  put('scope', options.scope, undefined);
  put('client_id', options.client_id, 'minted-client');
  put('jti', options.jti, randomUUID());
  return payload;
}

/** Signs a token per `options` (see `MintTokenOptions`); the building block of `issuer.mintToken`. */
export async function mintToken(
  options: MintTokenOptions,
  defaults: MintDefaults,
): Promise<string> {
  const alg = options.alg ?? 'RS256';
  const signer = options.key === 'untrusted' ? defaults.untrusted : defaults.trusted;
  const header: { alg: string; kid?: string; typ?: string } = { alg };
  const kid = options.kid === undefined ? defaults.trusted.kid : options.kid;
  if (kid !== null) header.kid = kid;
  const typ = options.typ === undefined ? 'at+jwt' : options.typ;
  if (typ !== null) header.typ = typ;

  const jwt = new SignJWT({ ...applyClaims(options, defaults), ...options.claims });
  jwt.setProtectedHeader(header);
  if (options.iat !== null) jwt.setIssuedAt(options.iat ?? undefined);
  if (options.exp !== null) jwt.setExpirationTime(options.exp ?? '5m');
  if (options.nbf !== undefined && options.nbf !== null) jwt.setNotBefore(options.nbf);
  return jwt.sign(await signingKeyFor(signer, alg, defaults));
}

async function signingKeyFor(signer: SigningKey, alg: MintAlgorithm, defaults: MintDefaults) {
  if (alg === 'HS256') return new TextEncoder().encode(defaults.trusted.publicPem);
  if (alg === 'RS256') return signer.privateKey;
  // WebCrypto binds a key to one algorithm: re-import the same RSA material for this one.
  const { alg: _bound, ...material } = signer.privateJwk;
  return importJWK(material, alg);
}

/**
 * An unsecured JWT (`alg: "none"`, empty signature): `<header>.<payload>.`. A verifier must
 * refuse it whatever it claims. `header` is merged over `{ alg: 'none', typ: 'at+jwt' }`.
 */
export function unsignedToken(claims: JWTPayload, header: Record<string, unknown> = {}): string {
  const encode = (value: object) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ: 'at+jwt', ...header })}.${encode(claims)}.`;
}
