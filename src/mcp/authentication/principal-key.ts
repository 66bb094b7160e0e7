import type { McpPrincipal } from './principal.interface.js';

/**
 * Who owns a session or a quota: the principal's issuer and subject, or, for
 * an anonymous caller, nothing (one anonymous owner; quotas that protect other
 * users key anonymous callers by address instead).
 */
export function principalKey(principal: McpPrincipal | undefined): string {
  return principal ? `${principal.issuer ?? ''}\u0000${principal.subject}` : '';
}
