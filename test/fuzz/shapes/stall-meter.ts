import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/**
 * What a property cost the event loop, reported and never judged (timing is
 * the bench's business): the longest case end to end (an in-process case runs
 * in microtasks, so it is one stall), the longest draw of the next case, and
 * the monitor's longest delay over the property (1 ms resolution; it needs the
 * loop to turn, as HTTP cases do, and it sees this whole process: the server,
 * and the drawing and checking of the cases beside it).
 */
export class StallMeter {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 1 });
  /** The longest event-loop delay, ms, by property. */
  readonly loop: Record<string, number> = {};
  /** The longest case, ms, by property. */
  readonly longestCase: Record<string, number> = {};
  /** The longest time between two cases (drawing the next one), ms, by property. */
  readonly longestGap: Record<string, number> = {};
  private lastEnd = new Map<string, number>();

  start(): void {
    this.histogram.enable();
  }

  /** Runs one case of `label`, timing it. */
  async measure<T>(label: string, work: () => Promise<T>): Promise<T> {
    const begin = performance.now();
    const last = this.lastEnd.get(label);
    if (last !== undefined) {
      this.longestGap[label] = Math.max(this.longestGap[label] ?? 0, begin - last);
    }
    try {
      return await work();
    } finally {
      const end = performance.now();
      this.longestCase[label] = Math.max(this.longestCase[label] ?? 0, end - begin);
      this.lastEnd.set(label, end);
    }
  }

  /** Closes `label`'s window of the monitor (call after its property). */
  endProperty(label: string): void {
    const max = this.histogram.max / 1e6;
    this.loop[label] = Math.max(this.loop[label] ?? 0, Number.isFinite(max) ? max : 0);
    this.histogram.reset();
  }

  /** One line for the suite's report. */
  report(): string {
    const labels = Object.keys(this.longestCase);
    return labels
      .map(
        (label) =>
          `${label}: longest case ${this.longestCase[label].toFixed(1)} ms, longest draw ` +
          `between cases ${(this.longestGap[label] ?? 0).toFixed(1)} ms, event-loop delay ` +
          `${(this.loop[label] ?? 0).toFixed(1)} ms (this process's: drawing and checking too)`,
      )
      .join('; ');
  }

  stop(): void {
    this.histogram.disable();
  }
}
