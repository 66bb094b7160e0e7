// Honest latency under attack: the soak's hostile mode (scripts/soak.mjs --hostile; drip-fed
// bodies, session floods and parked-call floods beside the honest clients, each from its own
// loopback address), and the round trip of its latency probe: one honest call at a time from a
// worker thread of its own. The soak fixture app is its own server, started by the soak script,
// so this row has no baseline beside it: the figure is judged against the target alone. The
// soak's functional checks (nothing lost, crossed or left over, every defence reached) must
// pass too, or the row fails. test/soak.e2e-spec.ts runs the same mode for those checks only:
// a latency bound depends on the machine, so it is judged here, not in a test. With
// `--against`, the twin runs its ref's own soak (and so its fixture app, on its own build).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runJsonChild } from '../lib/json-child.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The soak script of the tree `server` runs from (a twin's is its ref's). */
const soakOf = (server) => join(server.root ?? ROOT, 'scripts/soak.mjs');
/** The soak's bound on the honest probe's p99 (scripts/soak/options.mjs, HONEST_P99_MS). */
export { HONEST_P99_MS } from '../../scripts/soak/options.mjs';

/** Runs the soak to its end; resolves with its JSON report, which must say ok. */
async function soak(script, args) {
  const report = await runJsonChild(script, args, 'the hostile soak');
  if (!report?.ok) throw new Error(`the hostile soak failed: ${JSON.stringify(report?.problems)}`);
  return report;
}

export const soakHostile = {
  id: 'soak-hostile',
  title:
    "Honest calls beside hostile clients (the soak's hostile mode): the latency probe's round trip, one call at a time",
  transport: 'http',
  spawnsOwn: true,
  servers: ['warden-http'],
  labels: { 'warden-http': 'mcp-warden (soak fixture app)' },
  baselines: [],
  metrics: [
    { key: 'p50', label: 'probe p50 (ms)', short: 'p50', unit: 'ms' },
    { key: 'p99', label: 'probe p99 (ms)', short: 'p99', unit: 'ms' },
    { key: 'calls', label: 'probe calls', short: 'calls', unit: '' },
  ],
  // A ref from before the soak's latency probe has no figure to give.
  twinCannotRun(twin) {
    if (!existsSync(join(twin.root, 'scripts/soak/probe-worker.mjs')))
      return "its ref's soak has no latency probe (scripts/soak/probe-worker.mjs)";
  },
  async run(server, sizes) {
    const report = await soak(soakOf(server), [
      '--short',
      '--hostile',
      '--json',
      '--duration-ms',
      String(sizes.soakDurationMs),
    ]);
    const { p50, p99 } = report.probe.latency;
    return { p50, p99, calls: report.probe.answered };
  },
};
