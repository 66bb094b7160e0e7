/*
 * For specs that a client or a server must not leave a timer behind: a timer alive at the end
 * of a Jest worker's files keeps the worker from exiting ("failed to exit gracefully"), and in
 * an app it holds the process.
 */

/** The timers alive in this process, as Node counts its active resources. */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

/** Resolves once every zero-delay timer set before this call has run. */
export function afterZeroDelayTimers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
