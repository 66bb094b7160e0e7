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
import { createBenchAuth } from './lib/bench-auth.mjs';
import { benchDataDir, catalog } from './lib/catalog.mjs';
import { startServer, stopAll } from './lib/spawn-server.mjs';
import { throughputHttp } from './workloads/throughput.mjs';

const { values: flags } = parseArgs({
  options: {
    row: { type: 'string', default: 'service-http' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '4' },
  },
});
const { dataDir, remove: removeDataDir } = benchDataDir('mcp-warden-threads-');
const auth = await createBenchAuth();
const row = catalog(dataDir, auth).find((server) => server.id === flags.row);
let code = 0;
try {
  if (row?.transport !== 'http')
    throw new Error(`${flags.row}: not an HTTP row of bench/lib/catalog.mjs`);
  for (let run = 1; run <= Number(flags.runs); run++) {
    const handle = await startServer(row);
    try {
      // driveMeasured reads the process's CPU as the measured part starts and as it ends: the
      // threads are read at the same moments.
      const snapshots = [];
      const cpu = () => {
        snapshots.push(handle.threadCpu());
        return handle.cpu();
      };
      const sizes = { warmup: { count: 3_000 }, throughput: { seconds: Number(flags.seconds) } };
      const result = await Promise.race([
        throughputHttp.run({ ...row, url: handle.url, cpu }, sizes),
        handle.crashed,
      ]);
      const [before, after] = snapshots.slice(-2);
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
    } finally {
      await handle.stop();
    }
  }
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  code = 1;
} finally {
  await auth.close();
  removeDataDir();
  await stopAll();
  process.exit(code);
}
