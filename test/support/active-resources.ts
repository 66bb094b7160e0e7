/*
 * For specs that a client, a server or a helper must not leave a timer or a socket behind: one
 * alive at the end of a Jest worker's files keeps the worker from exiting ("failed to exit
 * gracefully"), and in an app it holds the process.
 */

/** How many resources of `kind` (`'Timeout'`, `'TCPSocketWrap'`, …) this process holds, as Node counts them. */
export function activeResources(kind: string): number {
  return process.getActiveResourcesInfo().filter((held) => held === kind).length;
}

/** The timers alive in this process. */
export function activeTimers(): number {
  return activeResources('Timeout');
}

/** Resolves once every zero-delay timer set before this call has run. */
export function afterZeroDelayTimers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
