/**
 * Who is calling, as established from verified credentials (a bearer token's
 * claims, the operator's `authenticate` hook, or the environment on stdio).
 * The server builds it; nothing a client puts in a body or `_meta` can set it.
 * @publicApi
 */
export interface McpPrincipal {
  /** Stable caller id: the token's `sub`, or the hook's choice. */
  readonly subject: string;
  /** Scopes granted to the caller. */
  readonly scopes: readonly string[];
  /** The issuer that vouched for the caller, when there is one. */
  readonly issuer?: string;
  /** The verified claims, for policies that need more than the subject and scopes. */
  readonly claims?: Readonly<Record<string, unknown>>;
}
