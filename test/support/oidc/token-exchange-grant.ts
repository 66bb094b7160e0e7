import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, SignJWT, type JWK } from 'jose';
import type { Provider } from 'oidc-provider';
import { loadOidcProvider } from './load-provider.js';
import type { SigningKey } from './keys.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

/** What the issuer's token exchange grant answered, one entry per request that reached it. */
export interface TokenExchangeRecord {
  readonly clientId: string;
  readonly subject?: string;
  readonly audience?: string;
  readonly scope?: string;
  readonly granted: boolean;
}

/** The downstream APIs the grant issues tokens for, and with which scopes. */
export interface TokenExchangeGrantOptions {
  readonly audiences: Readonly<Record<string, readonly string[]>>;
  /** Lifetime of an exchanged token, in seconds. Default 300. */
  readonly ttl?: number;
}

/**
 * Registers RFC 8693 token exchange on a real `oidc-provider` (which authenticates the client
 * at its token endpoint as for any grant): the subject token must be an access token this
 * issuer signed, still valid; the audience one of `audiences`, the scope within its scopes.
 * The token issued is an RS256 JWT for the audience, with the subject's `sub` and the client as
 * the actor (`act.sub`, RFC 8693 §4.1).
 */
export async function registerTokenExchangeGrant(
  provider: Provider,
  key: SigningKey,
  options: TokenExchangeGrantOptions,
): Promise<TokenExchangeRecord[]> {
  const { errors } = await loadOidcProvider();
  const keys = createLocalJWKSet({ keys: [key.publicJwk as JWK] });
  const ttl = options.ttl ?? 300;
  const records: TokenExchangeRecord[] = [];
  provider.registerGrantType(
    TOKEN_EXCHANGE_GRANT,
    // oidc-provider 9 calls a grant handler with the context alone; the body is the answer.
    async (ctx) => {
      const { params, client } = ctx.oidc;
      const record = { clientId: client.clientId, audience: params.audience, scope: params.scope };
      const refuse = (error: Error): never => {
        records.push({ ...record, granted: false });
        throw error;
      };
      if (params.subject_token_type !== ACCESS_TOKEN) {
        refuse(new errors.InvalidRequest('subject_token_type must be an access token'));
      }
      let subject: string;
      try {
        const { payload } = await jwtVerify(params.subject_token ?? '', keys, {
          issuer: provider.issuer,
          requiredClaims: ['sub', 'exp'],
        });
        subject = payload.sub!;
      } catch {
        return refuse(new errors.InvalidGrant('subject_token is not a valid access token'));
      }
      const allowed = params.audience ? options.audiences[params.audience] : undefined;
      if (!allowed)
        return refuse(new errors.InvalidTarget('no tokens are issued for that audience'));
      const scope = params.scope ?? allowed.join(' ');
      if (!scope.split(' ').every((one) => allowed.includes(one))) {
        refuse(new errors.InvalidRequest('scope beyond what the audience offers'));
      }
      const now = Math.floor(Date.now() / 1000);
      const accessToken = await new SignJWT({
        scope,
        client_id: client.clientId,
        act: { sub: client.clientId },
      })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
        .setIssuer(provider.issuer)
        .setSubject(subject)
        .setAudience(params.audience!)
        .setIssuedAt(now)
        .setExpirationTime(now + ttl)
        .setJti(randomUUID())
        .sign(key.privateKey);
      records.push({ ...record, subject, granted: true });
      ctx.body = {
        access_token: accessToken,
        issued_token_type: ACCESS_TOKEN,
        token_type: 'Bearer',
        expires_in: ttl,
        scope,
      };
    },
    ['subject_token', 'subject_token_type', 'audience', 'scope', 'requested_token_type'],
  );
  return records;
}
