/* Events of one millisecond share one ISO string: two events per call, thousands of calls a second. */
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
