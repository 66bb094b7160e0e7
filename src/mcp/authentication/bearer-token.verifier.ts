import { McpWardenError } from '../core/errors/mcp-warden.error.js';
import { JsonRpcErrorCode } from '../core/protocol/error-codes.constants.js';
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import { loadJose } from '../core/common/jose.loader.js';
import type { McpBearerAuthOptions } from './auth-options.interface.js';
import { IssuerJwksLocator } from './issuer-metadata.js';
import { isIdentityClaim } from './principal-identity.js';
import { VerifiedTokenCache } from './verified-token.cache.js';
import type { McpPrincipal } from './principal.interface.js';

/** Asymmetric JOSE algorithms; `none` and shared-secret HMAC are never accepted by default. */
const DEFAULT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/** A token that did not verify; its message is for the log, never for the client. */
export class McpInvalidTokenError extends McpWardenError {
  constructor(message: string) {
    super(JsonRpcErrorCode.InternalError, message);
  }

  /** A failure of the framework's own, handled where it is thrown: never a client's answer. */
  override get answersClient(): boolean {
    return false;
  }
}

/**
 * Verifies bearer JWTs with `jose`: the signature against the issuer's keys
 * (local, a given JWKS URL, or the one its metadata names), `iss`, `aud`
 * (RFC 8707: this server), `exp`/`nbf` with a small clock tolerance, an
 * algorithm allowlist, and `sub` and `iss` as non-empty strings. Remote keys
 * are cached; an unknown `kid` refreshes them at most once per cooldown, so
 * forged `kid`s cannot make it refetch.
 * A token that verified is trusted again until its `exp` (at most five
 * minutes) without a second signature check.
 */
export class BearerTokenVerifier {
  private keys?: Promise<JWTVerifyGetKey>;
  private readonly locator: IssuerJwksLocator;
  private readonly audiences: string[];
  private readonly verified = new VerifiedTokenCache();

  constructor(private readonly options: McpBearerAuthOptions) {
    this.locator = new IssuerJwksLocator(options.issuer);
    this.audiences = [options.audience].flat();
    if (options.jwks) this.keys = localKeys(options.jwks);
    else if (options.jwksUri) this.keys = remoteKeys(new URL(options.jwksUri));
    // Seen by the first verify; until then a rejection must not count as unhandled.
    this.keys?.catch(() => undefined);
  }

  /** The caller a token already verified as, while that holds (synchronous: the hot path). */
  known(token: string): McpPrincipal | undefined {
    return this.verified.get(token);
  }

  /**
   * The caller the token names, verifying its signature and claims (callers
   * look in `known()` first); throws `McpInvalidTokenError` for any token that
   * does not verify.
   */
  async verify(token: string): Promise<McpPrincipal> {
    let payload: JWTPayload;
    try {
      const { jwtVerify } = await loadJose();
      const { payload: verified } = await jwtVerify(token, await this.keySet(), {
        issuer: this.options.issuer,
        audience: this.audiences,
        algorithms: this.options.algorithms ?? DEFAULT_ALGORITHMS,
        clockTolerance: this.options.clockToleranceSec ?? 5,
        requiredClaims: ['sub', 'exp'],
      });
      payload = verified;
    } catch (error) {
      throw new McpInvalidTokenError((error as Error).message);
    }
    // RFC 7519: both are strings. A `sub` of 123 would be the caller "123" to one check and
    // someone else to another, and the four-eyes rule compares callers with operators.
    for (const claim of ['sub', 'iss'] as const) {
      if (!isIdentityClaim(payload[claim])) {
        throw new McpInvalidTokenError(`the "${claim}" claim is not a non-empty string`);
      }
    }
    const principal = principalOf(payload);
    this.verified.set(token, principal, payload.exp);
    return principal;
  }

  private keySet(): Promise<JWTVerifyGetKey> {
    if (this.keys) return this.keys;
    const discovered = this.locator.jwksUri().then(remoteKeys);
    this.keys = discovered;
    // A failed discovery is tried again on the next token, not remembered.
    discovered.catch(() => {
      if (this.keys === discovered) this.keys = undefined;
    });
    return discovered;
  }
}

/*
 * A malformed key set fails here, when the module is built, as jose's own
 * check would; its keys are imported on the first token.
 */
function localKeys(jwks: object): Promise<JWTVerifyGetKey> {
  if (!Array.isArray((jwks as { keys?: unknown }).keys)) {
    throw new TypeError('JSON Web Key Set malformed');
  }
  return loadJose().then((jose) => jose.createLocalJWKSet(jwks as JSONWebKeySet));
}

async function remoteKeys(url: URL): Promise<JWTVerifyGetKey> {
  const { createRemoteJWKSet } = await loadJose();
  return createRemoteJWKSet(url, { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
}

/* `scope` (RFC 9068, space-separated) or `scp` (an array, as some issuers send). */
function principalOf(payload: JWTPayload): McpPrincipal {
  const raw = payload.scope ?? payload.scp;
  const scopes = Array.isArray(raw)
    ? raw.filter((scope): scope is string => typeof scope === 'string')
    : typeof raw === 'string'
      ? raw.split(' ').filter(Boolean)
      : [];
  return Object.freeze({
    subject: payload.sub!,
    scopes: Object.freeze(scopes),
    issuer: payload.iss,
    claims: Object.freeze({ ...payload }),
  });
}
