import type { McpNonceStore } from './nonce-store.interface.js';
import {
  callerShareFull,
  callerStatesFull,
  serverEntriesFull,
  type McpNonceStoreBounds,
} from './nonce-store.bounds.js';

/**
 * The default nonce store: one process, bounded. A nonce is kept until its
 * state expires, so a replay is caught for as long as the state would be
 * accepted at all. When full even after dropping the expired ones, new
 * states are refused rather than old nonces forgotten: forgetting one would
 * let its state be replayed.
 *
 * Callers' nonces and the server's own entries (webhook notices and links)
 * are bounded apart, and each caller only up to its share: one caller
 * retrying fast fills its own share, not the store the others and the
 * webhook use.
 */
export class MemoryNonceStore implements McpNonceStore {
  /** Callers' nonces, over all callers: a replay is caught whoever presents it. */
  private readonly callers = new Map<string, number>();
  /** The same nonces by caller, so a full share is swept without walking every caller. */
  private readonly byCaller = new Map<string, Map<string, number>>();
  private readonly server = new Map<string, number>();
  private readonly bounds: McpNonceStoreBounds;
  /*
   * No entry of `callers` (of `server`) expires before this: a full store is swept only once
   * one may have, so while it is full of live nonces a request is refused without walking
   * them all. A sweep walks every caller's nonces (100,000 by default), and many addresses
   * can fill the store: without it, each request anyone made then would pay that walk.
   */
  private callersExpireFrom = Infinity;
  private serverExpiresFrom = Infinity;

  /** `bounds` as a number bounds the callers' nonces alone (each caller may then fill them). */
  constructor(bounds: McpNonceStoreBounds | number) {
    this.bounds = typeof bounds === 'number' ? { capacity: bounds, perCaller: bounds } : bounds;
  }

  consume(nonce: string, expiresAt: number, caller?: string): boolean {
    return caller === undefined
      ? this.consumeServer(nonce, expiresAt)
      : this.consumeCaller(nonce, expiresAt, caller);
  }

  /** Live nonces kept, callers' and the server's. */
  get size(): number {
    return this.callers.size + this.server.size;
  }

  private consumeCaller(nonce: string, expiresAt: number, caller: string): boolean {
    const now = Date.now();
    if (live(this.callers.get(nonce), now)) return false;
    const own = this.byCaller.get(caller) ?? new Map<string, number>();
    if (own.size >= this.bounds.perCaller) this.sweepCaller(caller, own, now);
    if (own.size >= this.bounds.perCaller) throw callerShareFull();
    if (this.callers.size >= this.bounds.capacity && now >= this.callersExpireFrom) {
      this.sweepCallers(now);
    }
    if (this.callers.size >= this.bounds.capacity) throw callerStatesFull();
    this.callers.set(nonce, expiresAt);
    this.byCaller.set(caller, own.set(nonce, expiresAt));
    this.callersExpireFrom = Math.min(this.callersExpireFrom, expiresAt);
    return true;
  }

  private consumeServer(nonce: string, expiresAt: number): boolean {
    const now = Date.now();
    if (live(this.server.get(nonce), now)) return false;
    if (this.server.size >= this.bounds.capacity && now >= this.serverExpiresFrom) {
      this.serverExpiresFrom = sweep(this.server, now);
    }
    if (this.server.size >= this.bounds.capacity) throw serverEntriesFull();
    this.server.set(nonce, expiresAt);
    this.serverExpiresFrom = Math.min(this.serverExpiresFrom, expiresAt);
    return true;
  }

  /** Drops `caller`'s expired nonces; returns when the first of those left expires. */
  private sweepCaller(caller: string, own: Map<string, number>, now: number): number {
    let first = Infinity;
    for (const [nonce, until] of own) {
      if (until > now) {
        if (until < first) first = until;
        continue;
      }
      own.delete(nonce);
      // An expired nonce presented again was recorded anew: only drop the entry it owns.
      if (this.callers.get(nonce) === until) this.callers.delete(nonce);
    }
    if (own.size === 0) this.byCaller.delete(caller);
    return first;
  }

  private sweepCallers(now: number): void {
    let first = Infinity;
    for (const [caller, own] of this.byCaller) {
      first = Math.min(first, this.sweepCaller(caller, own, now));
    }
    this.callersExpireFrom = first;
  }
}

function live(until: number | undefined, now: number): boolean {
  return until !== undefined && until > now;
}

/* Drops the expired entries; returns when the first of those left expires. */
function sweep(entries: Map<string, number>, now: number): number {
  let first = Infinity;
  for (const [nonce, until] of entries) {
    if (until <= now) entries.delete(nonce);
    else if (until < first) first = until;
  }
  return first;
}
