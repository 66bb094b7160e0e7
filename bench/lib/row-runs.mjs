// The scaffold of a diagnostic that looks inside one HTTP row under load (thread-cpu.mjs,
// journal-in-server.mjs): per run a fresh server of the row, the throughput-http load (32 in
// flight, 3,000 calls of warm-up, then `seconds`), and a reading of the server taken at the two
// moments the measured part starts and ends, the moments its CPU is read.
import { createBenchAuth } from './bench-auth.mjs';
import { benchDataDir, catalog } from './catalog.mjs';
import { startServer, stopAll } from './spawn-server.mjs';
import { throughputHttp } from '../workloads/throughput.mjs';

/**
 * Runs `runs` fresh servers of the row `rowId` and exits the process: 0, or 1 when anything
 * failed (its stack printed).
 * - `accept(row)`: throws when the row does not suit the diagnostic (it must be an HTTP row).
 * - `prepare(row, run)`: the server to start ({ server, nodeFlags }), by default the row as it is.
 * - `read(handle, server)`: the reading taken at each edge of the measured part.
 * - `report(run, result, before, after)`: prints the run, from the load's result and the readings.
 * - `cleanup()`: removes what the diagnostic made of its own, once every run is done.
 */
export async function runRow({ rowId, runs, seconds, accept, prepare, read, report, cleanup }) {
  const { dataDir, remove: removeDataDir } = benchDataDir('mcp-warden-row-');
  const auth = await createBenchAuth();
  const row = catalog(dataDir, auth).find((server) => server.id === rowId);
  let code = 0;
  try {
    if (row?.transport !== 'http')
      throw new Error(`${rowId}: not an HTTP row of bench/lib/catalog.mjs`);
    accept?.(row);
    for (let run = 1; run <= runs; run++) {
      const { server = row, nodeFlags = [] } = prepare?.(row, run) ?? {};
      const handle = await startServer(server, nodeFlags);
      try {
        const readings = [];
        const cpu = () => {
          readings.push(read(handle, server));
          return handle.cpu();
        };
        const sizes = { warmup: { count: 3_000 }, throughput: { seconds } };
        const result = await Promise.race([
          throughputHttp.run({ ...server, url: handle.url, cpu }, sizes),
          handle.crashed,
        ]);
        const [before, after] = readings.slice(-2);
        report(run, result, before, after);
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
    cleanup?.();
    await stopAll();
    process.exit(code);
  }
}
