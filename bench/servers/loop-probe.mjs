// Preloaded into every server process (node --import) beside memory-probe.mjs, so each can report
// how long its event loop was kept busy without code of its own. Off until the first SIGWINCH
// (a 1 ms timer would otherwise run through every other workload); each SIGWINCH then writes
// `bench-loop {...}` on stderr with the longest and the 99th-percentile delay (ms) since the
// previous one, and starts a new window. The report waits a few timer ticks first: a stall that
// ended in the same loop turn as the signal is recorded only when the monitor's timer next fires.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const RESOLUTION_MS = 1;
let histogram;

process.on('SIGWINCH', async () => {
  if (!histogram) {
    histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
  }
  await sleep(5 * RESOLUTION_MS);
  const ms = (ns) => (Number.isFinite(ns) ? ns / 1e6 : 0);
  const report = {
    max: ms(histogram.max),
    p99: ms(histogram.percentile(99)),
    samples: histogram.count,
    resolution: RESOLUTION_MS,
  };
  histogram.reset();
  process.stderr.write(`bench-loop ${JSON.stringify(report)}\n`);
});
