import { createHash } from 'node:crypto';
import type { McpPrincipal } from './principal.interface.js';
import { setBounded } from '../core/common/bounded-map.js';

/* Tokens remembered at most; past it the oldest go first. */
const MAX_ENTRIES = 10_000;
/* How long a verified token is trusted without verifying it again, at most (its own exp may be sooner). */
const MAX_AGE_MS = 5 * 60_000;

interface Entry {
  principal: McpPrincipal;
  expiresAt: number;
}

/**
 * Verified bearer tokens, by their SHA-256, until their `exp` (or five
 * minutes, whichever is sooner). A client sends the same token on every
 * request; checking its signature each time costs more than the call it
 * carries. Only tokens that verified are kept, keyed by a digest (the token
 * itself is never held), and the table is bounded.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, Entry>();

  /** The principal a token verified as, while that verification still holds. */
  get(token: string, now = Date.now()): McpPrincipal | undefined {
    const key = digest(token);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.principal;
  }

  set(token: string, principal: McpPrincipal, exp: number | undefined, now = Date.now()): void {
    const expiresAt = Math.min(now + MAX_AGE_MS, (exp ?? 0) * 1000);
    if (expiresAt <= now) return;
    setBounded(this.entries, digest(token), { principal, expiresAt }, MAX_ENTRIES);
  }

  get size(): number {
    return this.entries.size;
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
