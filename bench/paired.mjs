// Server CPU per tools/call of one row, this checkout against a git ref, in back-to-back pairs:
// for a row callgrind cannot run (the notes service: Cedar's WebAssembly does not start under
// valgrind in minutes), on a machine whose speed swings within minutes.
//
//   node bench/paired.mjs --against <git ref> [--row service-http] [--pairs N] [--seconds S]
//
// Each pair is two fresh servers of the row, one from this checkout and one from the ref (built in
// a temporary worktree, lib/against.mjs), measured one right after the other with the
// throughput-http load (32 in flight, after 3,000 calls of warm-up), the order alternating from
// pair to pair. A slow minute slows both halves of a pair alike, so the ratio of each pair moves
// far less than either figure. Prints each pair and the median ratios (this checkout ÷ the ref)
// of server CPU per call and of calls/s.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareAgainst, twinsOf } from './lib/against.mjs';
import { createBenchAuth } from './lib/bench-auth.mjs';
import { auditRootOf, catalog } from './lib/catalog.mjs';
import { median } from './lib/measure.mjs';
import { startServer, stopAll } from './lib/spawn-server.mjs';
import { throughputHttp } from './workloads/throughput.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    against: { type: 'string' },
    row: { type: 'string', default: 'service-http' },
    pairs: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '3' },
  },
});
const log = (line) => process.stderr.write(`${line}\n`);
if (!flags.against) {
  log('usage: node bench/paired.mjs --against <git ref> [--row id] [--pairs N] [--seconds S]');
  process.exit(2);
}

const dataDir = mkdtempSync(join(os.tmpdir(), 'mcp-warden-paired-'));
mkdirSync(auditRootOf(dataDir));
const ours = catalog(dataDir, await createBenchAuth()).find((server) => server.id === flags.row);
if (!ours || ours.transport !== 'http') {
  log(`--row ${flags.row}: not an HTTP row of bench/lib/catalog.mjs`);
  process.exit(2);
}
const against = prepareAgainst(flags.against, ROOT, log);
const [theirs] = twinsOf([ours], ROOT, against.dir, flags.against);

/* One fresh server of `row`, measured as throughput-http measures it: calls/s, server µs/call. */
async function measure(row) {
  const handle = await startServer(row);
  try {
    const sizes = { warmup: { count: 3_000 }, throughput: { seconds: Number(flags.seconds) } };
    const target = { ...row, url: handle.url, cpu: handle.cpu };
    const result = await Promise.race([throughputHttp.run(target, sizes), handle.crashed]);
    return result;
  } finally {
    await handle.stop();
  }
}

const ratios = [];
const here = [];
const there = [];
const rates = [];
let code = 0;
try {
  for (let pair = 1; pair <= Number(flags.pairs); pair++) {
    const first = pair % 2 === 1 ? ours : theirs;
    const a = await measure(first);
    const b = await measure(first === ours ? theirs : ours);
    const [mine, ref] = first === ours ? [a, b] : [b, a];
    ratios.push(mine.serverCpu / ref.serverCpu);
    here.push(mine.serverCpu);
    there.push(ref.serverCpu);
    rates.push(mine.rate / ref.rate);
    console.log(
      `pair ${pair}: ${mine.serverCpu.toFixed(0)} µs here, ${ref.serverCpu.toFixed(0)} µs at ` +
        `${against.commit}: ${(mine.serverCpu / ref.serverCpu).toFixed(2)}×; calls/s ` +
        `${mine.rate.toFixed(0)} here, ${ref.rate.toFixed(0)} there: ${(mine.rate / ref.rate).toFixed(2)}×`,
    );
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  console.log(
    `${flags.row}, server CPU per call, this checkout ÷ ${against.commit}: median ` +
      `${median(ratios).toFixed(2)}× over ${ratios.length} pairs ` +
      `(${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)}×); medians ` +
      `${median(here).toFixed(0)} µs here, ${median(there).toFixed(0)} µs at ${against.commit}`,
  );
  console.log(`calls/s, this checkout ÷ ${against.commit}: median ${median(rates).toFixed(2)}×`);
} catch (error) {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  code = 1;
} finally {
  against.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
  // Exit explicitly, as run.mjs does: a socket a server left half-open must not keep this alive.
  await stopAll();
  process.exit(code);
}
