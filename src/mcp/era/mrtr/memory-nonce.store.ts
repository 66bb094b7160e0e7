import { McpTooManyRequestsError } from '../../errors/protocol.errors.js';
import type { McpNonceStore } from './nonce-store.interface.js';

/**
 * The default nonce store: one process, bounded. A nonce is kept until its
 * state expires, so a replay is caught for as long as the state would be
 * accepted at all. When the store is full even after dropping the expired
 * ones, new states are refused rather than old nonces forgotten: forgetting
 * one would let its state be replayed.
 */
export class MemoryNonceStore implements McpNonceStore {
  private readonly used = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  consume(nonce: string, expiresAt: number): boolean {
    const now = Date.now();
    const until = this.used.get(nonce);
    if (until !== undefined && until > now) return false;
    if (this.used.size >= this.capacity) this.sweep(now);
    if (this.used.size >= this.capacity) {
      throw new McpTooManyRequestsError('Too many approval states outstanding');
    }
    this.used.set(nonce, expiresAt);
    return true;
  }

  get size(): number {
    return this.used.size;
  }

  private sweep(now: number): void {
    for (const [nonce, until] of this.used) if (until <= now) this.used.delete(nonce);
  }
}
