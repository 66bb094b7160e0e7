// Where a server's event loop went, by area, from a `--cpu-prof` profile (`node bench/run.mjs
// --only =<workload> --runs 1 --profile DIR` writes one per server): each sample goes to the
// first area, in the order below, that a frame of its stack belongs to (a sample under the audit
// log's code that is hashing counts as the log's). Idle time and start-up (module loading) are
// left out, so the shares are of the loop's busy time under load.
//
//   node bench/profile-shares.mjs <file.cpuprofile> [<file.cpuprofile> ...]
//
// Prints, per profile, each area's share, and the busy time in all. Two profiles of one run (a
// row and its `--against` twin) compare directly: the same load, for the same time.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/* The areas, first match wins: each tests one call frame of a sample's stack (`leaf`: its top). */
const byUrl = (pattern) => (frame) => pattern.test(frame.url);
const AREAS = [
  [
    'socket writes',
    (frame, leaf) => leaf && /^(writeUtf8String|writev|writeBuffer)$/.test(frame.functionName),
  ],
  ['SQLite reads (Kysely and the driver)', byUrl(/app\/database\/|\/kysely\//)],
  ['audit lines on stderr', byUrl(/app\/audit\/|app\/logging\/|\/sonic-boom\//)],
  [
    'audit records (events, chain, sinks)',
    byUrl(/mcp\/audit\/|authorization\/audit\/|authorizer\/audit\//),
  ],
  ['OpenTelemetry metrics SDK', byUrl(/@opentelemetry\/sdk-metrics\//)],
  ['DTO validation', byUrl(/\/class-validator\/|\/class-transformer\//)],
  ['policy (Cedar)', byUrl(/policy\/cedar\/|\/cedar-wasm\/|^wasm:/)],
];
const LEFT_OUT = /internal\/modules\/|^compileSourceTextModule$/;

function shares(file) {
  const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const timeOf = new Map();
  samples.forEach((id, index) => timeOf.set(id, (timeOf.get(id) ?? 0) + (timeDeltas[index] ?? 0)));
  const areas = new Map(
    [...AREAS.map(([name]) => name), 'garbage collection', 'everything else'].map((name) => [
      name,
      0,
    ]),
  );
  let busy = 0;
  for (const [id, micros] of timeOf) {
    const stack = [];
    for (let at = id; at !== undefined; at = parentOf.get(at)) stack.push(byId.get(at).callFrame);
    const leaf = stack[0].functionName;
    if (leaf === '(idle)' || leaf === '(root)') continue;
    if (stack.some((frame) => LEFT_OUT.test(frame.url) || LEFT_OUT.test(frame.functionName))) {
      continue;
    }
    busy += micros;
    if (leaf === '(garbage collector)') {
      areas.set('garbage collection', areas.get('garbage collection') + micros);
      continue;
    }
    const area = AREAS.find(([, matches]) =>
      stack.some((frame, index) => matches(frame, index === 0)),
    );
    const name = area ? area[0] : 'everything else';
    areas.set(name, areas.get(name) + micros);
  }
  return { areas, busy };
}

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: node bench/profile-shares.mjs <file.cpuprofile> [...]\n');
  process.exit(2);
}
for (const file of files) {
  const { areas, busy } = shares(file);
  console.log(`${basename(file)}: ${(busy / 1000).toFixed(0)} ms busy`);
  for (const [name, micros] of areas) {
    console.log(`  ${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
}
