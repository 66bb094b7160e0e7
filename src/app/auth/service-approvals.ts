import type { McpApprovalsOptions } from '../../index.js';

/**
 * Four-eyes approvals for the service, from the environment (HTTP only).
 * - The operator console at `/approvals`, when `APPROVALS_CLIENT_ID` and
 *   `APPROVALS_PUBLIC_URL` (the service's public origin) are set: operators
 *   sign in at `OAUTH_ISSUER` with that client (authorization code with
 *   PKCE; `APPROVALS_CLIENT_SECRET` for a confidential client) and need the
 *   `mcp:approve` scope (`APPROVALS_SCOPE` to change it).
 * - The webhook, when `APPROVALS_WEBHOOK_URL` and `APPROVALS_WEBHOOK_SECRET`
 *   are set: a signed POST for every pending operator ask, with one-time
 *   approve and deny links on `APPROVALS_PUBLIC_URL`.
 * A half-set pair fails the start, as a half-set `OAUTH_*` does.
 */
export function serviceApprovalsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): McpApprovalsOptions | undefined {
  const read = (name: string) => env[name]?.trim() || undefined;
  const clientId = read('APPROVALS_CLIENT_ID');
  const publicUrl = read('APPROVALS_PUBLIC_URL');
  const webhookUrl = read('APPROVALS_WEBHOOK_URL');
  const webhookSecret = read('APPROVALS_WEBHOOK_SECRET');
  if (clientId && !publicUrl) throw new Error('APPROVALS_CLIENT_ID needs APPROVALS_PUBLIC_URL');
  if (clientId && !read('OAUTH_ISSUER')) {
    throw new Error('APPROVALS_CLIENT_ID needs OAUTH_ISSUER: operators sign in there');
  }
  if (publicUrl && !clientId && !webhookUrl) {
    throw new Error('APPROVALS_PUBLIC_URL needs APPROVALS_CLIENT_ID or APPROVALS_WEBHOOK_URL');
  }
  if (!webhookUrl !== !webhookSecret) {
    throw new Error('APPROVALS_WEBHOOK_URL and APPROVALS_WEBHOOK_SECRET must be set together');
  }
  if (webhookUrl && !publicUrl) {
    throw new Error('APPROVALS_WEBHOOK_URL needs APPROVALS_PUBLIC_URL for its links');
  }
  if (!clientId && !webhookUrl) return undefined;
  const scope = read('APPROVALS_SCOPE');
  const clientSecret = read('APPROVALS_CLIENT_SECRET');
  return {
    ...(clientId && publicUrl
      ? {
          console: {
            ...(scope ? { scope } : {}),
            oidc: { clientId, publicUrl, ...(clientSecret ? { clientSecret } : {}) },
          },
        }
      : {}),
    ...(webhookUrl && webhookSecret
      ? { webhook: { url: webhookUrl, secret: webhookSecret, publicUrl } }
      : {}),
  };
}
