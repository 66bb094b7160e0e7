/* Values audit events share rather than each making its own: two events a call, thousands a second. */

/* Events of one millisecond share one ISO string. */
let isoMs = 0;
let isoText = '';

/** The time now, as an audit event's `time` (ISO 8601, UTC, milliseconds). */
export function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

/*
 * A policy's ids as the event carries them: the policy engine's own arrays, which its decision
 * cache shares between calls, are frozen there and pass as they are.
 */
export function frozen(ids: readonly string[]): readonly string[] {
  return Object.isFrozen(ids) ? ids : Object.freeze([...ids]);
}
