// One HTTP row against another in back-to-back pairs, on a machine whose speed swings within
// minutes: the same row built from a git ref (--against), or another row of this checkout
// (--versus), such as the server without an audit sink or bare Node. For rows callgrind cannot
// run (the notes service: Cedar's WebAssembly does not start under valgrind in minutes), and for
// ratios between rows that a whole `npm run bench` measures minutes apart.
//
//   node bench/paired.mjs (--against <git ref> | --versus <row id>) [--row service-http]
//                         [--pairs N] [--seconds S]
//
// Each pair is two fresh servers, the row and its counterpart (a ref is built in a temporary
// worktree, lib/against.mjs), measured one right after the other with the throughput-http load
// (32 in flight, after 3,000 calls of warm-up), the order alternating from pair to pair. A slow
// minute slows both halves of a pair alike, so the ratio of each pair moves far less than either
// figure. Prints each pair and the median ratios (the row ÷ its counterpart) of server CPU per
// call and of calls/s.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareAgainst, twinsOf } from './lib/against.mjs';
import { createBenchAuth } from './lib/bench-auth.mjs';
import { benchDataDir, catalog } from './lib/catalog.mjs';
import { median } from './lib/measure.mjs';
import { startServer, stopAll } from './lib/spawn-server.mjs';
import { throughputHttp } from './workloads/throughput.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    against: { type: 'string' },
    versus: { type: 'string' },
    row: { type: 'string', default: 'service-http' },
    pairs: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '3' },
  },
});
const log = (line) => process.stderr.write(`${line}\n`);
if (!flags.against === !flags.versus) {
  log(
    'usage: node bench/paired.mjs (--against <git ref> | --versus <row id>) [--row id] ' +
      '[--pairs N] [--seconds S]',
  );
  process.exit(2);
}

const { dataDir, remove: removeDataDir } = benchDataDir('mcp-warden-paired-');
const auth = await createBenchAuth();
const rows = catalog(dataDir, auth);
const httpRow = (id) => {
  const row = rows.find((server) => server.id === id);
  if (row?.transport === 'http') return row;
  log(`${id}: not an HTTP row of bench/lib/catalog.mjs`);
  process.exit(2);
};
const ours = httpRow(flags.row);
const against = flags.against ? prepareAgainst(flags.against, ROOT, log) : undefined;
const theirs = against
  ? twinsOf([ours], ROOT, against.dir, flags.against)[0]
  : httpRow(flags.versus);
const counterpart = against ? against.commit : flags.versus;

/* One fresh server of `row`, measured as throughput-http measures it: calls/s, server µs/call. */
async function measure(row) {
  const handle = await startServer(row);
  try {
    const sizes = { warmup: { count: 3_000 }, throughput: { seconds: Number(flags.seconds) } };
    const target = { ...row, url: handle.url, cpu: handle.cpu };
    return await Promise.race([throughputHttp.run(target, sizes), handle.crashed]);
  } finally {
    await handle.stop();
  }
}

const cpu = { ratios: [], ours: [], theirs: [] };
const rates = [];
let code = 0;
try {
  for (let pair = 1; pair <= Number(flags.pairs); pair++) {
    const first = pair % 2 === 1 ? ours : theirs;
    const a = await measure(first);
    const b = await measure(first === ours ? theirs : ours);
    const [mine, ref] = first === ours ? [a, b] : [b, a];
    cpu.ratios.push(mine.serverCpu / ref.serverCpu);
    cpu.ours.push(mine.serverCpu);
    cpu.theirs.push(ref.serverCpu);
    rates.push(mine.rate / ref.rate);
    console.log(
      `pair ${pair}: ${flags.row} ${mine.serverCpu.toFixed(0)} µs, ${mine.rate.toFixed(0)} calls/s; ` +
        `${counterpart} ${ref.serverCpu.toFixed(0)} µs, ${ref.rate.toFixed(0)} calls/s; ` +
        `CPU ${(mine.serverCpu / ref.serverCpu).toFixed(2)}×, calls/s ${(mine.rate / ref.rate).toFixed(2)}×`,
    );
  }
  const range = (values) => {
    const sorted = [...values].sort((x, y) => x - y);
    return `${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)}×`;
  };
  console.log(
    `${flags.row} ÷ ${counterpart}, ${rates.length} pairs: server CPU per call median ` +
      `${median(cpu.ratios).toFixed(2)}× (${range(cpu.ratios)}; ${median(cpu.ours).toFixed(0)} µs ` +
      `against ${median(cpu.theirs).toFixed(0)}), calls/s median ${median(rates).toFixed(2)}× ` +
      `(${range(rates)})`,
  );
} catch (error) {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  code = 1;
} finally {
  against?.cleanup();
  await auth.close();
  removeDataDir();
  // Exit explicitly, as run.mjs does: a socket a server left half-open must not keep this alive.
  await stopAll();
  process.exit(code);
}
