// Where an HTTP row's server CPU goes, thread by thread: the main thread (the event loop), and
// each other thread that worked (V8's garbage-collection helpers, libuv's pool, a worker such as
// the SQLite audit sink's writer). Server CPU per call counts every thread, so a change that moves
// work off the main thread shows here as a shift, not in paired.mjs's totals.
//
//   node bench/thread-cpu.mjs [--row service-http] [--runs N] [--seconds S]
//
// Each run is a fresh server under the throughput-http load (32 in flight, after 3,000 calls of
// warm-up). Prints calls/s, server CPU per call, and each thread's share of it, in µs per call.
import { parseArgs } from 'node:util';
import { runRow } from './lib/row-runs.mjs';

const { values: flags } = parseArgs({
  options: {
    row: { type: 'string', default: 'service-http' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '4' },
  },
});
await runRow({
  rowId: flags.row,
  runs: Number(flags.runs),
  seconds: Number(flags.seconds),
  read: (handle) => handle.threadCpu(),
  report(run, result, before, after) {
    const used = [...after].map(([tid, seconds]) => [tid, seconds - (before.get(tid) ?? 0)]);
    const total = used.reduce((sum, [, seconds]) => sum + seconds, 0);
    const perCall = (seconds) => ((seconds / total) * result.serverCpu).toFixed(1);
    const [main, ...others] = used;
    const busy = others.filter(([, seconds]) => seconds > 0).sort((a, b) => b[1] - a[1]);
    console.log(
      `run ${run}: ${result.rate.toFixed(0)} calls/s, server ${result.serverCpu.toFixed(1)} µs/call: ` +
        `main thread ${perCall(main[1])}, ` +
        busy.map(([, seconds]) => perCall(seconds)).join(' + ') +
        ` (${busy.length} other threads)`,
    );
  },
});
