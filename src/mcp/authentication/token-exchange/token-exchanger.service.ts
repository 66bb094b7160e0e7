import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { MCP_HTTP_SETTINGS } from '../../core/http/http-settings.token.js';
import type { ResolvedHttpOptions } from '../authentication-settings.interface.js';
import { McpHttpAuthenticator } from '../http-authenticator.service.js';
import { isLoopbackHttp } from '../loopback-http.js';
import type { McpPrincipal } from '../principal.interface.js';
import type { McpExchangedToken, McpExchangeRequest } from './credentials.interface.js';
import { ExchangedTokensCache } from './exchanged-tokens.cache.js';
import { McpTokenExchangeError } from './token-exchange.error.js';
import type { McpTokenExchangeOptions } from './token-exchange.options.js';
import { checkOptions, signingKey } from './client-authentication.js';
import { CALLER_ERRORS, refusalOf } from './issuer-refusal.js';

type OpenIdClient = typeof import('openid-client');
type Configuration = import('openid-client').Configuration;

const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

/** Who is asking for an exchange, as the request that carries the call establishes it. */
export interface McpExchangeCaller {
  readonly transport: string;
  readonly principal?: McpPrincipal;
  readonly httpRequest?: IncomingMessage;
}

/** What one exchange did, for the audit (never a token). */
export interface McpExchangeReport {
  /** As the tool gave it (a refusal may be for a missing one). */
  readonly audience?: string;
  readonly scope?: string;
  /** `issued` by the issuer, served from the cache, or refused (`error`: the OAuth code or why). */
  readonly result: 'issued' | 'cached' | 'refused';
  readonly error?: string;
}

/**
 * OAuth 2.0 Token Exchange (RFC 8693) for tools that call downstream APIs as their caller
 * (docs/token-exchange.md). The subject token is the caller's bearer token, verified again
 * when exchanged (an expired one never is); the server authenticates as its own confidential
 * client through `openid-client`, loaded on the first exchange. Tokens are cached per (inbound
 * token digest, audience, scope), and concurrent asks for one key share one exchange.
 */
@Injectable()
export class McpTokenExchanger {
  private readonly logger = new Logger('McpTokenExchange');
  private readonly options?: McpTokenExchangeOptions;
  private readonly issuer?: string;
  private readonly cache: ExchangedTokensCache;
  private readonly pending = new Map<string, Promise<McpExchangedToken>>();
  private readonly digests = new WeakMap<McpPrincipal, string>();
  private configuration?: Promise<{ lib: OpenIdClient; config: Configuration }>;

  constructor(
    @Optional()
    @Inject(MCP_HTTP_SETTINGS)
    settings: Pick<ResolvedHttpOptions, 'auth'> | null = null,
    @Optional()
    @Inject(McpHttpAuthenticator)
    private readonly authenticator: McpHttpAuthenticator | null = null,
  ) {
    this.options = settings?.auth?.tokenExchange;
    this.issuer = settings?.auth?.issuer;
    if (this.options) checkOptions(this.options);
    this.cache = new ExchangedTokensCache(this.options?.maxCachedTokens ?? 1000);
  }

  /**
   * A token for `request.audience` on behalf of `caller`; `report` hears what happened. Rejects
   * with `McpTokenExchangeError`. A caller whose token verified already and whose exchange is
   * cached is answered without another await: this runs on every call of such a tool.
   */
  exchange(
    caller: McpExchangeCaller,
    request: McpExchangeRequest,
    report: (what: McpExchangeReport) => void,
  ): Promise<McpExchangedToken> {
    const audience = request?.audience;
    const scope = scopeOf(request?.scope);
    if (typeof audience !== 'string' || audience === '') {
      const error = 'invalid_request';
      return refused(report, { audience, scope }, 'token exchange needs an audience', error, error);
    }
    if (caller.transport === 'stdio') {
      const message = 'token exchange needs the caller’s bearer token, and a stdio caller has none';
      return refused(report, { audience, scope }, message, 'no_inbound_token');
    }
    if (!this.options) {
      const message = 'token exchange is not configured (http.auth.tokenExchange)';
      return refused(report, { audience, scope }, message, 'not_configured');
    }
    const req = caller.httpRequest;
    if (!req && caller.transport === 'http' && caller.principal) {
      // Cluster mode relays a request to the instance holding its session without its headers.
      const message =
        'token exchange needs the caller’s bearer token, which this request does not carry here (relayed from another instance)';
      return refused(report, { audience, scope }, message, 'relayed_request');
    }
    const known = req && this.authenticator?.knownBearer(req);
    if (known || !req || !this.authenticator) {
      return this.exchangeFor(caller, known, audience, scope, report);
    }
    return this.authenticator
      .verifiedBearer(req)
      .then((inbound) => this.exchangeFor(caller, inbound, audience, scope, report));
  }

  private exchangeFor(
    caller: McpExchangeCaller,
    inbound: { token: string; principal: McpPrincipal } | undefined,
    audience: string,
    scope: string | undefined,
    report: (what: McpExchangeReport) => void,
  ): Promise<McpExchangedToken> {
    const asked = { audience, scope };
    if (
      !inbound ||
      !caller.principal ||
      inbound.principal.subject !== caller.principal.subject ||
      inbound.principal.issuer !== caller.principal.issuer
    ) {
      const message =
        'token exchange needs the caller’s bearer token, and this caller presented none that verifies';
      return refused(report, asked, message, 'no_inbound_token');
    }
    // Verification allows a few seconds of clock skew; an exchange allows none.
    const expiresAt = Number(inbound.principal.claims?.exp) * 1000;
    if (!(expiresAt > Date.now())) {
      const message = 'the caller’s token has expired: it is not exchanged';
      return refused(report, asked, message, 'expired_inbound_token');
    }
    const key = `${this.digestOf(inbound)}\u0000${audience}\u0000${scope ?? ''}`;
    const cached = this.cache.get(key);
    if (cached) {
      report({ ...asked, result: 'cached' });
      return Promise.resolve(cached);
    }
    // Calls that ask while an exchange is under way share it: one issued, the others cached.
    const pending = this.pending.get(key);
    const exchanging =
      pending ??
      this.ask(inbound.token, audience, scope)
        .then((token) => {
          this.cache.set(key, token, expiresAt);
          return token;
        })
        .finally(() => this.pending.delete(key));
    if (!pending) this.pending.set(key, exchanging);
    return exchanging.then(
      (token) => {
        report({ ...asked, result: pending ? 'cached' : 'issued' });
        return token;
      },
      (error: McpTokenExchangeError) => {
        report({ ...asked, result: 'refused', error: error.oauthError ?? 'unavailable' });
        throw error;
      },
    );
  }

  /*
   * The inbound token's digest, once per verified principal: the verifier keeps one principal
   * object per token while it holds, so a caller's calls hash their token once here.
   */
  private digestOf(inbound: { token: string; principal: McpPrincipal }): string {
    let digest = this.digests.get(inbound.principal);
    if (digest === undefined) {
      digest = ExchangedTokensCache.digestOf(inbound.token);
      this.digests.set(inbound.principal, digest);
    }
    return digest;
  }

  private async ask(
    subjectToken: string,
    audience: string,
    scope: string | undefined,
  ): Promise<McpExchangedToken> {
    let lib: OpenIdClient;
    let config: Configuration;
    try {
      ({ lib, config } = await this.configured());
    } catch (error) {
      this.configuration = undefined;
      this.logger.warn(`token exchange: the issuer’s metadata is unavailable: ${describe(error)}`);
      throw new McpTokenExchangeError('token exchange failed: the issuer is unavailable');
    }
    try {
      const answer = await lib.genericGrantRequest(config, GRANT, {
        subject_token: subjectToken,
        subject_token_type: ACCESS_TOKEN,
        requested_token_type: ACCESS_TOKEN,
        audience,
        ...(scope ? { scope } : {}),
      });
      const lifetime = answer.expiresIn();
      return Object.freeze({
        accessToken: answer.access_token,
        // Without `expires_in` the token is not reused for long.
        expiresAt: Date.now() + (lifetime ?? 60) * 1000,
        ...(answer.scope ? { scope: answer.scope } : {}),
      });
    } catch (error) {
      const refusal = refusalOf(lib, error);
      if (refusal) {
        // The issuer's own words only where they are about the request: about the server's own
        // client (invalid_client, unauthorized_client, …) they are for the operator's log.
        const told = CALLER_ERRORS.has(refusal.error) && refusal.description;
        if (!told) {
          this.logger.warn(
            `token exchange for ${audience} refused: ${refusal.error}` +
              (refusal.description ? ` (${refusal.description})` : ''),
          );
        }
        throw new McpTokenExchangeError(
          `token exchange for ${audience} was refused: ${refusal.error}` +
            (told ? ` (${told.slice(0, 200)})` : ''),
          refusal.error,
        );
      }
      this.logger.warn(`token exchange for ${audience} failed: ${describe(error)}`);
      throw new McpTokenExchangeError(
        `token exchange for ${audience} failed: no answer from the issuer`,
      );
    }
  }

  private configured(): Promise<{ lib: OpenIdClient; config: Configuration }> {
    this.configuration ??= this.configure();
    return this.configuration;
  }

  private async configure(): Promise<{ lib: OpenIdClient; config: Configuration }> {
    const lib = await import('openid-client');
    const options = this.options!;
    const issuer = this.issuer!;
    const auth = options.clientSecret
      ? lib.ClientSecretBasic(options.clientSecret)
      : lib.PrivateKeyJwt(await signingKey(options.privateKey!));
    const insecure = isLoopbackHttp(options.tokenEndpoint ?? issuer);
    let config: Configuration;
    if (options.tokenEndpoint) {
      config = new lib.Configuration(
        { issuer, token_endpoint: options.tokenEndpoint },
        options.clientId,
        undefined,
        auth,
      );
      if (insecure) lib.allowInsecureRequests(config);
    } else {
      config = await lib.discovery(new URL(issuer), options.clientId, undefined, auth, {
        execute: insecure ? [lib.allowInsecureRequests] : [],
        timeout: 5,
      });
    }
    return { lib, config };
  }
}

/** Reports a refusal, and rejects with it. */
function refused(
  report: (what: McpExchangeReport) => void,
  asked: { audience?: string; scope?: string },
  message: string,
  error: string,
  oauthError?: string,
): Promise<never> {
  report({ ...asked, result: 'refused', error });
  return Promise.reject(new McpTokenExchangeError(message, oauthError));
}

/** The scope as one space-separated string, each scope once, sorted: one cache key per set. */
function scopeOf(scope: McpExchangeRequest['scope']): string | undefined {
  if (scope === undefined) return undefined;
  const scopes = typeof scope === 'string' ? scope.split(' ') : [...(scope ?? [])];
  const normal = [...new Set(scopes.filter(Boolean))].sort().join(' ');
  return normal || undefined;
}

function describe(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}
