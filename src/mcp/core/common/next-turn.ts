/**
 * Resolves after every promise reaction already queued has run: what a
 * settled call sends on its way out (a chain of microtasks) is sent by then.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
