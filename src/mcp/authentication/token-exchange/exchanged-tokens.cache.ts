import { hash } from 'node:crypto';
import type { McpExchangedToken } from './credentials.interface.js';

/* A token is reused until this long before it expires, so a downstream call never carries one
   that lapses on the way. */
const EARLY_MS = 30_000;

/**
 * Exchanged tokens by `digest\0audience\0scope`, where the digest is the inbound token's
 * SHA-256 (`digestOf`; the token itself is never kept): one exchange serves a caller's calls
 * until shortly before the exchanged token, or the inbound one, expires. Bounded, the least
 * recently used first out.
 */
export class ExchangedTokensCache {
  private readonly entries = new Map<string, { token: McpExchangedToken; until: number }>();

  constructor(private readonly max: number) {}

  /** The SHA-256 of an inbound token: the first part of a key, `digest\0audience\0scope`. */
  static digestOf(inboundToken: string): string {
    return hash('sha256', inboundToken, 'base64url');
  }

  get(key: string, now = Date.now()): McpExchangedToken | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= now) return undefined;
    this.entries.set(key, entry);
    return entry.token;
  }

  /** Keeps `token` until shortly before it or the inbound token (`inboundExpiresAt`) expires. */
  set(key: string, token: McpExchangedToken, inboundExpiresAt: number): void {
    const now = Date.now();
    const expiry = Math.min(token.expiresAt, inboundExpiresAt);
    // A short-lived token is reused for at most nine tenths of its life.
    const until = expiry - Math.min(EARLY_MS, (expiry - now) / 10);
    if (until <= now) return;
    this.entries.delete(key);
    this.entries.set(key, { token, until });
    while (this.entries.size > this.max) {
      this.entries.delete(this.entries.keys().next().value!);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
