/**
 * The slice of `oidc-provider` (which ships no type declarations) that the test issuer uses.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionPrompt {
    name: 'login' | 'consent' | string;
    reasons: string[];
    details: {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
      [key: string]: unknown;
    };
  }

  export interface InteractionDetails {
    uid: string;
    prompt: InteractionPrompt;
    params: Record<string, unknown> & { client_id?: string; login_hint?: string };
    session?: { accountId?: string };
    grantId?: string;
    returnTo: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    rejectOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantConstructor {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export interface KoaContextLike {
    oidc?: { route?: string; client?: { clientId: string } };
  }

  /** A grant handler's context (`registerGrantType`): the client authenticated, its parameters. */
  export interface GrantContext {
    oidc: { client: { clientId: string }; params: Record<string, string | undefined> };
    body: unknown;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Record<string, unknown>);
    readonly issuer: string;
    readonly Grant: GrantConstructor;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: any[]) => void): this;
    registerGrantType(
      name: string,
      handler: (ctx: GrantContext) => Promise<void>,
      parameters?: string[],
    ): void;
  }

  export class OIDCProviderError extends Error {
    constructor(status: number, message: string);
    error: string;
    error_description?: string;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => OIDCProviderError;
    InvalidRequest: new (description?: string) => OIDCProviderError;
    InvalidGrant: new (description?: string) => OIDCProviderError;
    AccessDenied: new (description?: string) => OIDCProviderError;
  };

  export default Provider;
}
