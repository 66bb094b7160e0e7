/**
 * Resolves once `holds()` is true, checking once per event-loop turn (so I/O
 * and timers run in between); rejects after `turns` checks instead of
 * spinning forever when the state it waits for never comes.
 */
export async function until(holds: () => boolean, what: string, turns = 100_000): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    if (holds()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}
