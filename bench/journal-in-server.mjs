// What the audit's own code takes of a call's event-loop time inside the bench server under load,
// by part: the decision record (its event, the arguments' digest), the outcome record, the
// turn's seal (lines written and hashed, queued), the sink's write begun; beside them V8's
// garbage-collection pauses per call (all of the server's, audit or not). journal-alone.mjs
// times the same code alone; here it runs among the rest of each call's work.
//
//   npm run build && node bench/journal-in-server.mjs [--row warden-audit-http] [--runs 3] [--seconds 4]
//
// Each run is a fresh server (a row of lib/catalog.mjs with a journal: warden-audit-http,
// warden-audit-fail-closed-http, warden-audit-discard-http) under the throughput-http load,
// preloaded with servers/journal-probe.mjs. The timing itself adds about 0.1 µs a part.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createBenchAuth } from './lib/bench-auth.mjs';
import { benchDataDir, catalog } from './lib/catalog.mjs';
import { startServer, stopAll } from './lib/spawn-server.mjs';
import { throughputHttp } from './workloads/throughput.mjs';

const { values: flags } = parseArgs({
  options: {
    row: { type: 'string', default: 'warden-audit-http' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '4' },
  },
});
const PROBE = fileURLToPath(new URL('servers/journal-probe.mjs', import.meta.url));
const PARTS = ['record', 'outcome', 'seal', 'flush', 'gc'];
const { dataDir, remove: removeDataDir } = benchDataDir('mcp-warden-journal-');
const probeDir = mkdtempSync(join(tmpdir(), 'mcp-warden-journal-probe-'));
const auth = await createBenchAuth();
const row = catalog(dataDir, auth).find((server) => server.id === flags.row);
let code = 0;
try {
  if (!row?.env?.WARDEN_AUDIT) throw new Error(`${flags.row}: not an audited HTTP row`);
  for (let run = 1; run <= Number(flags.runs); run++) {
    const file = join(probeDir, `run-${run}.json`);
    const probed = { ...row, env: { ...row.env, JOURNAL_PROBE_FILE: file } };
    const handle = await startServer(probed, ['--import', PROBE]);
    try {
      // driveMeasured reads the CPU as the measured part starts and ends: the probe's totals are
      // read at the same moments (written every 100 ms, so each edge is within 0.1 s).
      const snapshots = [];
      const cpu = () => {
        snapshots.push(JSON.parse(readFileSync(file, 'utf8')));
        return handle.cpu();
      };
      const sizes = { warmup: { count: 3_000 }, throughput: { seconds: Number(flags.seconds) } };
      const result = await Promise.race([
        throughputHttp.run({ ...probed, url: handle.url, cpu }, sizes),
        handle.crashed,
      ]);
      const [before, after] = snapshots.slice(-2);
      const calls = after.calls - before.calls;
      const perCall = (part) => (after[part] - before[part]) / calls / 1000;
      const audit = PARTS.filter((part) => part !== 'gc').reduce((sum, p) => sum + perCall(p), 0);
      console.log(
        `run ${run}: ${result.rate.toFixed(0)} calls/s, server ${result.serverCpu.toFixed(1)} µs/call; ` +
          `audit code ${audit.toFixed(2)} µs a call (` +
          PARTS.filter((part) => part !== 'gc')
            .map((part) => `${part} ${perCall(part).toFixed(2)}`)
            .join(', ') +
          `), GC pauses ${perCall('gc').toFixed(2)} µs a call`,
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
  rmSync(probeDir, { recursive: true, force: true });
  await stopAll();
  process.exit(code);
}
