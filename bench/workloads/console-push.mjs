// How soon a call that waits for an operator reaches the operator console: the time from an
// official SDK client's tools/call to the ask's `pending` event on the console's event stream,
// with an operator signed in at a real oidc-provider through the console's own OIDC client
// (test/fixtures/console/console-push.ts, compiled by `npm run build:fixtures`, which
// `npm run bench` runs first). The page's own rendering is not in the figure: the browser suite
// (test/operator/console-browser.e2e-spec.ts) shows the card appears, and prints how soon. The
// target is the console's: an ask visible within 1 s of the call. With `--against`, the twin
// runs its ref's own fixture, which bench/lib/against.mjs builds in the ref's tree.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runJsonChild } from '../lib/json-child.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The compiled fixture of the tree `server` runs from (a twin's is its ref's). */
const fixtureOf = (server) =>
  join(server.root ?? ROOT, 'dist-fixtures/test/fixtures/console/console-push.js');
/** The console's bound: an ask on the operator's stream within this long of the call. */
export const CONSOLE_PUSH_TARGET_MS = 1_000;

function measure(fixture, samples) {
  if (!existsSync(fixture)) {
    return Promise.reject(new Error(`${fixture} is missing: run npm run build:fixtures`));
  }
  return runJsonChild(fixture, [String(samples)], 'console-push');
}

export const consolePush = {
  id: 'console-push',
  title:
    "Operator console: a waiting call's ask on the console's event stream, ms from the SDK call (signed-in operator, one call at a time)",
  transport: 'http',
  spawnsOwn: true,
  servers: ['warden-http'],
  labels: { 'warden-http': 'mcp-warden (operator console)' },
  baselines: [],
  // Its fixture is compiled by `npm run build:fixtures`, in the ref's tree too.
  needsFixtures: true,
  metrics: [
    { key: 'p50', label: 'p50 (ms)', short: 'p50', unit: 'ms' },
    { key: 'p99', label: 'p99 (ms)', short: 'p99', unit: 'ms' },
    { key: 'max', label: 'max (ms)', short: 'max', unit: 'ms' },
  ],
  // A ref from before the console fixture has no figure to give.
  twinCannotRun(twin) {
    if (!existsSync(fixtureOf(twin))) return `its ref has no console fixture (${fixtureOf(twin)})`;
  },
  async run(server, sizes) {
    const { p50, p99, max } = await measure(fixtureOf(server), sizes.consolePush.samples);
    return { p50, p99, max };
  },
};
