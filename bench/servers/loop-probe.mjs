// Preloaded into every server process (node --import) beside memory-probe.mjs, so each can report
// how long its event loop was kept busy without code of its own. Off until the first SIGWINCH
// (a 1 ms timer would otherwise run through every other workload); each SIGWINCH then writes
// `bench-loop {...}` on stderr with the longest and the 99th-percentile delay (ms) since the
// previous one, and starts a new window. The report waits a few timer ticks first: a stall that
// ended in the same loop turn as the signal is recorded only when the monitor's timer next fires.
// Beside the delay (wall time: it includes the time the OS gave the CPU to other processes, which
// on a shared machine can be hundreds of ms), `busy` is the longest gap between two ticks of a 1 ms
// timer counted in CPU time of the main thread (process.threadCpuUsage, Node 23.9+; the whole
// process's CPU time on older Node, which also counts GC and worker threads, so it errs high),
// capped by the gap's wall time: how long the server itself kept its event loop busy.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const RESOLUTION_MS = 1;
let histogram;
let busy = 0;

const cpuMs = () => {
  const { user, system } = process.threadCpuUsage?.() ?? process.cpuUsage();
  return (user + system) / 1000;
};

/* The busy meter: every tick, the CPU time since the previous tick, at most its wall time. */
function startBusyMeter() {
  let wall = performance.now();
  let cpu = cpuMs();
  setInterval(() => {
    const nowWall = performance.now();
    const nowCpu = cpuMs();
    busy = Math.max(busy, Math.min(nowWall - wall, nowCpu - cpu));
    wall = nowWall;
    cpu = nowCpu;
  }, RESOLUTION_MS).unref();
}

process.on('SIGWINCH', async () => {
  if (!histogram) {
    histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    startBusyMeter();
  }
  await sleep(5 * RESOLUTION_MS);
  const ms = (ns) => (Number.isFinite(ns) ? ns / 1e6 : 0);
  const report = {
    max: ms(histogram.max),
    p99: ms(histogram.percentile(99)),
    busy,
    samples: histogram.count,
    resolution: RESOLUTION_MS,
  };
  histogram.reset();
  busy = 0;
  process.stderr.write(`bench-loop ${JSON.stringify(report)}\n`);
});
