/**
 * Settles like `work`, unless `ms` pass first: then like `onTimeout()` (which
 * may return a fallback or throw). The timer never outlives the race.
 */
export async function withTimeout<T>(
  work: PromiseLike<T>,
  ms: number,
  onTimeout: () => T,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let expired = false;
  const timedOut = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      expired = true;
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  try {
    return await Promise.race([work, timedOut]);
  } catch (error) {
    // `onTimeout` may abort the work (a tool's signal), which can then reject before the
    // timeout's own outcome settles: once the time is up, the timeout's outcome is the answer.
    if (expired) return timedOut;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
