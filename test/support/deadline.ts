/**
 * Resolves once `time` (ms since the epoch) has passed. For tests whose subject is a deadline
 * (an ask's expiry, a sealed state's): the deadline itself is what they wait for, never a sync.
 */
export function at(time: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now()) + 20));
}
