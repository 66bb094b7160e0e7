// One row against another over every whole run kept in bench/results/ (lib/pooled.mjs): for a gap
// of a few percent that no single run, nor a few paired runs, tells from the machine's swings.
//
//   node bench/pooled-ratio.mjs --row <id> --versus <id> [--workload throughput-http]
//                               [--key rate|serverCpu] [--match <text in a report's name>]
//
// Prints each report's per-run ratios, then the median and the middle half over all of them.
// The reports are of several commits: read it for a ratio the commits between them left alone,
// and say which.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pooledRatios } from './lib/pooled.mjs';

const RESULTS = fileURLToPath(new URL('results', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    row: { type: 'string' },
    versus: { type: 'string' },
    workload: { type: 'string', default: 'throughput-http' },
    key: { type: 'string', default: 'rate' },
    // Only the reports whose file name holds this, e.g. the ref of an --against run.
    match: { type: 'string', default: '' },
  },
});
if (!flags.row || !flags.versus || !['rate', 'serverCpu'].includes(flags.key)) {
  process.stderr.write(
    'usage: node bench/pooled-ratio.mjs --row <id> --versus <id> [--workload id] ' +
      '[--key rate|serverCpu] [--match text]\n',
  );
  process.exit(2);
}

const reports = readdirSync(RESULTS)
  .filter((file) => file.endsWith('.json') && file.includes(flags.match))
  .sort()
  .map((name) => ({ name, data: JSON.parse(readFileSync(join(RESULTS, name), 'utf8')) }));
const pooled = pooledRatios(reports, flags);
const fixed = (ratio) => `${ratio.toFixed(2)}×`;
for (const { name, ratios } of pooled.perReport) {
  process.stdout.write(`${name}: ${ratios.map(fixed).join(' ')}\n`);
}
if (pooled.count === 0) {
  process.stdout.write(
    `no report measured both ${flags.row} and ${flags.versus} in ${flags.workload}\n`,
  );
  process.exit(1);
}
process.stdout.write(
  `${flags.row} ÷ ${flags.versus}, ${flags.key}: median ${fixed(pooled.median)} ` +
    `(middle half ${fixed(pooled.lower)}–${fixed(pooled.upper)}) over ${pooled.count} runs in ` +
    `${pooled.perReport.length} reports; ${pooled.atLeastOne} at or above 1×\n`,
);
