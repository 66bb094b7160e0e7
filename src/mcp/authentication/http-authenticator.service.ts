import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { McpHttpError } from '../core/http/mcp-http.error.js';
import { MCP_HTTP_SETTINGS } from '../core/http/http-settings.token.js';
import type { ResolvedHttpOptions } from './authentication-settings.interface.js';
import { BearerTokenVerifier, McpInvalidTokenError } from './bearer-token.verifier.js';
import type { MaybePromise } from '../core/common/maybe-promise.js';
import type { McpPrincipal } from './principal.interface.js';
import { hasPrincipalIdentity } from './principal-identity.js';
import { protectedResourceMetadataUrl } from './protected-resource.metadata.js';
import { bearerChallenge } from './www-authenticate.js';

/**
 * Establishes who sends an HTTP request, from verified credentials only: the
 * operator's `authenticate` hook, else a bearer JWT in the `Authorization`
 * header (never the query string). With neither configured every request is
 * anonymous. A request that fails is refused with 401 and a challenge naming
 * the protected resource metadata, so a client can find the authorization
 * server; one without the required scopes with 403 `insufficient_scope`.
 */
@Injectable()
export class McpHttpAuthenticator {
  private readonly logger = new Logger('McpAuth');
  private readonly verifier?: BearerTokenVerifier;

  constructor(
    @Inject(MCP_HTTP_SETTINGS)
    private readonly settings: Pick<ResolvedHttpOptions, 'auth' | 'authenticate'>,
  ) {
    if (settings.auth) this.verifier = new BearerTokenVerifier(settings.auth);
  }

  /** Whether requests must authenticate. */
  get enabled(): boolean {
    return this.verifier !== undefined || this.settings.authenticate !== undefined;
  }

  /**
   * The caller, undefined when authentication is off; throws the 401/403
   * refusal. Synchronous for a bearer token that already verified.
   */
  authenticate(req: IncomingMessage): MaybePromise<McpPrincipal | undefined> {
    if (!this.enabled) return undefined;
    if (!this.settings.authenticate) {
      const token = bearerTokenOf(req);
      const known = token === undefined ? undefined : this.verifier?.known(token);
      if (known) return this.withRequiredScopes(req, known);
    }
    return this.authenticateSlowly(req);
  }

  private async authenticateSlowly(req: IncomingMessage): Promise<McpPrincipal | undefined> {
    const hooked = this.settings.authenticate ? await this.fromHook(req) : undefined;
    if (hooked) return this.withRequiredScopes(req, hooked);
    const token = bearerTokenOf(req);
    if (!this.verifier || token === undefined) throw this.unauthorized(req, undefined);
    // Without a hook, `authenticate` already looked the token up among the verified ones.
    const known = this.settings.authenticate ? this.verifier.known(token) : undefined;
    if (known) return this.withRequiredScopes(req, known);
    try {
      return this.withRequiredScopes(req, await this.verifier.verify(token));
    } catch (error) {
      if (!(error instanceof McpInvalidTokenError)) throw error;
      this.logger.warn(`bearer token refused: ${error.message}`);
      throw this.unauthorized(req, 'invalid_token');
    }
  }

  /** The bearer token `req` carried and its caller, when it verified already and still holds. */
  knownBearer(req: IncomingMessage): { token: string; principal: McpPrincipal } | undefined {
    const token = bearerTokenOf(req);
    const principal = token === undefined ? undefined : this.verifier?.known(token);
    return principal && { token: token!, principal };
  }

  /**
   * The bearer token `req` carried and the caller it verifies as now, or undefined: no token
   * (an anonymous caller, or one the `authenticate` hook let in), or one that no longer
   * verifies (it expired since the request was let in). For token exchange, which must never
   * trade a token that does not verify.
   */
  async verifiedBearer(
    req: IncomingMessage,
  ): Promise<{ token: string; principal: McpPrincipal } | undefined> {
    const token = bearerTokenOf(req);
    if (token === undefined || !this.verifier) return undefined;
    try {
      return {
        token,
        principal: this.verifier.known(token) ?? (await this.verifier.verify(token)),
      };
    } catch (error) {
      if (error instanceof McpInvalidTokenError) return undefined;
      throw error;
    }
  }

  /** The 403 step-up challenge for a call that needs `scopes`. */
  insufficientScope(req: IncomingMessage, scopes: readonly string[]): McpHttpError {
    const challenge = bearerChallenge({
      error: 'insufficient_scope',
      scope: scopes.join(' '),
      resource_metadata: protectedResourceMetadataUrl(req, this.settings.auth),
    });
    return new McpHttpError(403, 'Forbidden: insufficient_scope', undefined, {
      'WWW-Authenticate': challenge,
    });
  }

  private async fromHook(req: IncomingMessage): Promise<McpPrincipal | undefined> {
    try {
      const principal = await this.settings.authenticate!(req);
      // A subject (and issuer) that is not a non-empty string names nobody: refused, as a token's.
      return principal && hasPrincipalIdentity(principal) ? principal : undefined;
    } catch (error) {
      // A hook that throws refuses, like one that returns nothing (fail closed).
      this.logger.error(`authenticate hook failed: ${(error as Error)?.stack ?? error}`);
      return undefined;
    }
  }

  private withRequiredScopes(req: IncomingMessage, principal: McpPrincipal): McpPrincipal {
    const required = this.settings.auth?.requiredScopes;
    if (required && !required.every((scope) => principal.scopes.includes(scope))) {
      throw this.insufficientScope(req, required);
    }
    return principal;
  }

  private unauthorized(req: IncomingMessage, error: 'invalid_token' | undefined): McpHttpError {
    const required = this.settings.auth?.requiredScopes;
    const challenge = bearerChallenge({
      error,
      scope: required?.length ? required.join(' ') : undefined,
      resource_metadata: protectedResourceMetadataUrl(req, this.settings.auth),
    });
    return new McpHttpError(401, 'Unauthorized', undefined, { 'WWW-Authenticate': challenge });
  }
}

/* RFC 6750 §2.1: `Authorization: Bearer <token>`; the scheme is case-insensitive. */
function bearerTokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}
