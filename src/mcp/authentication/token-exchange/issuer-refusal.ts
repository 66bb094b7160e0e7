type OpenIdClient = typeof import('openid-client');

/* OAuth errors about the request a tool made, whose description may go back to it. */
export const CALLER_ERRORS = new Set([
  'invalid_target',
  'invalid_scope',
  'invalid_grant',
  'invalid_request',
]);

/**
 * The issuer's OAuth error: in a JSON body, or (`invalid_client` with Basic authentication, RFC
 * 6749 §5.2) in the 401's `WWW-Authenticate` challenge.
 */
export function refusalOf(
  lib: OpenIdClient,
  error: unknown,
): { error: string; description?: string } | undefined {
  if (error instanceof lib.ResponseBodyError) {
    return { error: error.error, description: error.error_description };
  }
  if (error instanceof lib.WWWAuthenticateChallengeError) {
    const parameters = error.cause[0]?.parameters;
    return parameters?.error
      ? { error: parameters.error, description: parameters.error_description }
      : undefined;
  }
  return undefined;
}
