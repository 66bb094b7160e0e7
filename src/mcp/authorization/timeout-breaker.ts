import { principalKey } from '../authentication/principal-key.js';
import type { AuthorizerContext } from './authorizer.interface.js';
import { setBounded } from '../core/common/bounded-map.js';

/** Keys remembered at most; past it the oldest are forgotten (they would expire soon anyway). */
const MAX_KEYS = 10_000;

/**
 * Remembers authorizer decisions that timed out. For one timeout's length
 * after one, the same decision (seam, name, caller) is not asked again: it
 * denies at once, as the timeout did. A hung policy then costs each caller
 * one `authorizerTimeoutMs` per window instead of one per request, and stays
 * closed: nothing is allowed while it hangs.
 */
export class AuthorizerTimeoutBreaker {
  private readonly open = new Map<string, number>();

  constructor(private readonly windowMs: number) {}

  /**
   * One decision's key. The purpose is part of it: a policy may answer a
   * visibility check by another path than a call, so one hanging must not
   * deny the other.
   */
  key(seam: string, name: string, context: AuthorizerContext): string {
    const caller = context.principal ? principalKey(context.principal) : `c:${context.connId}`;
    return `${seam}\u0000${name}\u0000${context.purpose ?? 'call'}\u0000${caller}`;
  }

  /** Whether any decision timed out recently (until `tripped` next finds it expired). */
  get anyOpen(): boolean {
    return this.open.size > 0;
  }

  /** Whether this decision timed out less than one window ago. */
  tripped(key: string, now = Date.now()): boolean {
    const until = this.open.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    this.open.delete(key);
    return false;
  }

  trip(key: string, now = Date.now()): void {
    setBounded(this.open, key, now + this.windowMs, MAX_KEYS);
  }
}
