// How soon a call that waits for an operator reaches the operator console: the time from an
// official SDK client's tools/call to the ask's `pending` event on the console's event stream,
// with an operator signed in at a real oidc-provider through the console's own OIDC client
// (test/fixtures/console/console-push.ts, compiled by `npm run build:fixtures`, which
// `npm run bench` runs first). The page's own rendering is not in the figure: the browser suite
// (test/operator/console-browser.e2e-spec.ts) shows the card appears, and prints how soon. The
// target is the console's: an ask visible within 1 s of the call.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runJsonChild } from '../lib/json-child.mjs';

const FIXTURE = fileURLToPath(
  new URL('../../dist-fixtures/test/fixtures/console/console-push.js', import.meta.url),
);
/** The console's bound: an ask on the operator's stream within this long of the call. */
export const CONSOLE_PUSH_TARGET_MS = 1_000;

function measure(samples) {
  if (!existsSync(FIXTURE)) {
    return Promise.reject(new Error(`${FIXTURE} is missing: run npm run build:fixtures`));
  }
  return runJsonChild(FIXTURE, [String(samples)], 'console-push');
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
  metrics: [
    { key: 'p50', label: 'p50 (ms)', short: 'p50', unit: 'ms' },
    { key: 'p99', label: 'p99 (ms)', short: 'p99', unit: 'ms' },
    { key: 'max', label: 'max (ms)', short: 'max', unit: 'ms' },
  ],
  async run(_server, sizes) {
    const { p50, p99, max } = await measure(sizes.consolePush.samples);
    return { p50, p99, max };
  },
};
