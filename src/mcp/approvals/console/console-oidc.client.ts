import { McpWardenError } from '../../core/errors/mcp-warden.error.js';
import { JsonRpcErrorCode } from '../../core/protocol/error-codes.constants.js';
import { Inject, Injectable } from '@nestjs/common';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import { isIdentityClaim } from '../../authentication/principal-identity.js';
import { isLoopbackHttp } from '../../authentication/loopback-http.js';
import { MCP_CONSOLE_SETTINGS } from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';

type OpenIdClient = typeof import('openid-client');
type Configuration = import('openid-client').Configuration;

/** What a sign-in under way keeps in its sealed cookie until the issuer sends the operator back. */
export interface ConsoleLoginState {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  readonly redirectUri: string;
  /** Where the console sends the operator once signed in (a path under the console's). */
  readonly returnTo?: string;
}

/**
 * What the issuer answered at a token endpoint, as far as the session needs it: the scopes
 * it granted, and what lets the console ask again.
 */
export interface ConsoleIssuerAnswer {
  readonly scopes: readonly string[];
  /** Present when the issuer issued one (`offline_access`, or its own policy). */
  readonly refreshToken?: string;
  /** The access token's lifetime (`expires_in`), when the issuer said. */
  readonly expiresInMs?: number;
}

/** The issuer refused to confirm a session (an OAuth error answer, not an outage). */
export class ConsoleIssuerRefusal extends McpWardenError {
  constructor(message: string) {
    super(JsonRpcErrorCode.InternalError, message);
  }

  /** A failure of the framework's own, handled where it is thrown: never a client's answer. */
  override get answersClient(): boolean {
    return false;
  }
}

/** How long a failed discovery is remembered before a sign-in may try again. */
const RETRY_AFTER_MS = 10_000;

/**
 * The console's OpenID Connect relying party: authorization code with PKCE
 * (S256), state and nonce, at the API's own issuer. `openid-client` is loaded
 * on the first sign-in, so an app without a console never loads it. Plain
 * HTTP is allowed only for an issuer on a loopback address (development).
 */
@Injectable()
export class ConsoleOidcClient {
  private configuration?: Promise<{ lib: OpenIdClient; config: Configuration }>;
  private failedAt = 0;

  constructor(@Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings) {}

  /** Where to send the operator, and what to keep until they come back. */
  async start(redirectUri: string): Promise<{ url: string; login: ConsoleLoginState }> {
    const { lib, config } = await this.discovered();
    const verifier = lib.randomPKCECodeVerifier();
    const login = { state: lib.randomState(), nonce: lib.randomNonce(), verifier, redirectUri };
    const url = lib.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes.join(' '),
      response_type: 'code',
      code_challenge: await lib.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: login.state,
      nonce: login.nonce,
      // OpenID Connect Core §11: an issuer grants offline access only on a consent prompt.
      ...(this.settings.scopes.includes('offline_access') ? { prompt: 'consent' } : {}),
    });
    return { url: url.href, login };
  }

  /**
   * Exchanges the code the issuer sent back (`callbackUrl`, as the browser
   * requested it) and verifies the ID token: the operator, with the scopes
   * the issuer granted, and what lets the console ask the issuer again. Rejects on any
   * mismatch.
   */
  async finish(
    callbackUrl: URL,
    login: ConsoleLoginState,
  ): Promise<{ operator: McpPrincipal; answer: ConsoleIssuerAnswer }> {
    const { config, lib } = await this.discovered();
    const tokens = await lib.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: login.verifier,
      expectedState: login.state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    // Compared with callers' token claims (four eyes): only non-empty strings name someone.
    if (!isIdentityClaim(claims?.sub) || !isIdentityClaim(claims.iss)) {
      throw new Error('the ID token names no subject or issuer');
    }
    const answer = this.answerOf(tokens, [...this.settings.scopes]);
    return { operator: { subject: claims.sub, issuer: claims.iss, scopes: answer.scopes }, answer };
  }

  /**
   * Asks the issuer to confirm a session with its refresh token (RFC 6749 §6): the scopes it
   * grants now. Throws `ConsoleIssuerRefusal` when the issuer refuses (the grant was revoked,
   * the token expired or was used), any other error when it cannot be reached.
   */
  async refresh(refreshToken: string, scopes: readonly string[]): Promise<ConsoleIssuerAnswer> {
    const { config, lib } = await this.discovered();
    try {
      const tokens = await lib.refreshTokenGrant(config, refreshToken);
      // RFC 6749 §5.1: no `scope` is the refresh token's scope, what was granted before.
      return this.answerOf(tokens, [...scopes]);
    } catch (error) {
      if (error instanceof lib.ResponseBodyError) throw new ConsoleIssuerRefusal(error.error);
      throw error;
    }
  }

  /** Revokes a refresh token at the issuer (RFC 7009), when it has an endpoint for that. */
  async revoke(refreshToken: string): Promise<void> {
    const { config, lib } = await this.discovered();
    if (!config.serverMetadata().revocation_endpoint) return;
    await lib.tokenRevocation(config, refreshToken, { token_type_hint: 'refresh_token' });
  }

  private answerOf(
    tokens: { scope?: string; refresh_token?: string; expires_in?: number },
    granted: string[],
  ): ConsoleIssuerAnswer {
    // RFC 6749 §5.1: a response without `scope` granted exactly what was asked.
    const scopes =
      typeof tokens.scope === 'string' ? tokens.scope.split(' ').filter(Boolean) : granted;
    const expiresIn = tokens.expires_in;
    return {
      scopes,
      ...(typeof tokens.refresh_token === 'string' ? { refreshToken: tokens.refresh_token } : {}),
      ...(typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn >= 0
        ? { expiresInMs: expiresIn * 1000 }
        : {}),
    };
  }

  private discovered(): Promise<{ lib: OpenIdClient; config: Configuration }> {
    if (this.configuration) return this.configuration;
    if (Date.now() - this.failedAt < RETRY_AFTER_MS) {
      return Promise.reject(new Error('the issuer is unavailable'));
    }
    this.configuration = this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      this.failedAt = Date.now();
      throw error;
    });
    return this.configuration;
  }

  private async discover(): Promise<{ lib: OpenIdClient; config: Configuration }> {
    const lib = await import('openid-client');
    const { issuer, clientId, clientSecret } = this.settings;
    const insecure = isLoopbackHttp(issuer);
    const config = await lib.discovery(
      new URL(issuer),
      clientId,
      clientSecret,
      clientSecret ? lib.ClientSecretPost(clientSecret) : lib.None(),
      { execute: insecure ? [lib.allowInsecureRequests] : [], timeout: 5 },
    );
    return { lib, config };
  }
}
