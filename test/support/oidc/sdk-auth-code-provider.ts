import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { followAuthorization, type AuthorizationResponse } from './user-agent.js';

/**
 * An `OAuthClientProvider` for the official SDK client's authorization-code flow, with no
 * browser: it registers itself dynamically (no client information until the SDK saves some),
 * and "opens" the authorization URL by following it with `followAuthorization`, so the test
 * only has to hand the code to `transport.finishAuth(code)`:
 *
 *   const provider = new SdkAuthCodeProvider();
 *   await expect(client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })))
 *     .rejects.toThrow(UnauthorizedError);
 *   await transport.finishAuth((await provider.authorization).code);
 *   // then connect a new Client with a new transport using the same provider
 */
export class SdkAuthCodeProvider implements OAuthClientProvider {
  #clientInformation: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #codeVerifier: string | undefined;
  #authorization: Promise<AuthorizationResponse> | undefined;
  /** Every authorization URL the SDK asked to open. */
  readonly authorizationUrls: URL[] = [];

  constructor(
    readonly redirectUri = 'http://127.0.0.1/callback',
    readonly scope?: string,
    readonly clientName = 'mcp-warden-e2e',
  ) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }

  /** The result of following the last authorization URL (rejects if the issuer refused). */
  get authorization(): Promise<AuthorizationResponse> {
    if (!this.#authorization) throw new Error('the SDK has not asked for an authorization yet');
    return this.#authorization;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#clientInformation;
  }

  saveClientInformation(clientInformation: OAuthClientInformationMixed): void {
    this.#clientInformation = clientInformation;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrls.push(authorizationUrl);
    this.#authorization = followAuthorization(authorizationUrl);
    // Observed here so a refusal is not an unhandled rejection before the test awaits it.
    this.#authorization.catch(() => undefined);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.#codeVerifier) throw new Error('no code verifier saved');
    return this.#codeVerifier;
  }
}
