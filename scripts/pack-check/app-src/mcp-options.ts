import { Authorizers, type McpBearerAuthOptions, type McpModuleOptions } from 'mcp-warden';

/** The MCP options of the app, served and tested alike; `auth` turns on bearer tokens. */
export function mcpOptions(auth?: McpBearerAuthOptions): McpModuleOptions {
  return {
    name: 'pack-check',
    version: '1.0.0',
    transport: 'http',
    authorizer: Authorizers.allowAll(),
    authorizerSource: 'configured',
    readAuthorizer: Authorizers.allowAll(),
    // With bearer auth, the operator console too: its routes are mounted on the adapter.
    ...(auth
      ? {
          http: { auth },
          approvals: {
            console: {
              oidc: { clientId: 'pack-check-console', publicUrl: 'http://127.0.0.1' },
            },
          },
        }
      : {}),
  };
}

/** Bearer auth from the environment the pack check starts the app in (a local key set). */
export function authFromEnv(): McpBearerAuthOptions | undefined {
  const { PACK_CHECK_ISSUER, PACK_CHECK_AUDIENCE, PACK_CHECK_JWKS } = process.env;
  if (!PACK_CHECK_ISSUER || !PACK_CHECK_AUDIENCE || !PACK_CHECK_JWKS) return undefined;
  return {
    issuer: PACK_CHECK_ISSUER,
    audience: PACK_CHECK_AUDIENCE,
    jwks: JSON.parse(PACK_CHECK_JWKS) as { keys: object[] },
  };
}
