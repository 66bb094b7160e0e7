import type { McpPrincipal } from './principal.interface.js';

/**
 * The stdio caller as the operator configured it in the environment:
 * `MCP_PRINCIPAL_SUBJECT` (required for a principal) and
 * `MCP_PRINCIPAL_SCOPES` (space-separated). Undefined when no subject is set.
 *
 * @example
 * await serveStdio(AppModule, { principal: principalFromEnv() });
 * @publicApi
 */
export function principalFromEnv(env: NodeJS.ProcessEnv = process.env): McpPrincipal | undefined {
  const subject = env.MCP_PRINCIPAL_SUBJECT?.trim();
  if (!subject) return undefined;
  const scopes = (env.MCP_PRINCIPAL_SCOPES ?? '').split(/\s+/).filter(Boolean);
  return Object.freeze({ subject, scopes: Object.freeze(scopes), issuer: 'environment' });
}
