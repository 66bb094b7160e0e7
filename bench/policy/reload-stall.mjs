// How long a hot reload of a large policy set holds up the event loop: 1,000 Cedar policies
// (`permit ... when { context.input.n > <i> }`, spread over ten tools, 100 a file) in a temporary
// folder, applied at boot from `{ dir }`; then, each round, every file is rewritten with the
// thresholds moved up by one and `McpPolicy.reload()` is awaited while the event loop is
// watched: perf_hooks' monitorEventLoopDelay (1 ms resolution) and the longest gap between ticks
// of a 1 ms timer. The files are written before the watch starts: the server's cost is reading,
// validating and applying them, not an operator's editor. Each round checks that the new set
// decides (a call the old thresholds allowed is now denied). Prints one JSON line:
// `{ maxStallMs, maxGapMs, reloadMs, bootMs, policies, reloads }` (the longest stall and gap over
// all rounds, the median reload time, and the boot with the set).
//   node bench/policy/reload-stall.mjs [--reloads N]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { median } from '../lib/measure.mjs';
import { bootPolicyApp, CALL_CONTEXT } from './policy-app.mjs';

const { values } = parseArgs({ options: { reloads: { type: 'string', default: '5' } } });
const RELOADS = Number(values.reloads);
const POLICIES = 1_000;
const TOOLS = Array.from({ length: 10 }, (_, i) => `count_${i}`);
const PER_FILE = POLICIES / TOOLS.length;
const RESOLUTION_MS = 1;

const inputSchema = {
  type: 'object',
  properties: { n: { type: 'integer' }, text: { type: 'string' } },
  required: ['n', 'text'],
};

/** Writes the set with every threshold raised by `shift`: one file per tool. */
function writeSet(dir, shift) {
  TOOLS.forEach((tool, t) => {
    let text = '';
    for (let k = 0; k < PER_FILE; k++) {
      const i = t * PER_FILE + k;
      text += `@id("count-${i}")\npermit (principal, action == Mcp::Action::"${tool}", resource)\n`;
      text += `when { context.input.n > ${i + shift} };\n\n`;
    }
    writeFileSync(join(dir, `${tool}.cedar`), text);
  });
}

/** `count_0` with `n`: allowed while some threshold of its set is below `n`. */
function decides(policy, n) {
  const decision = policy.decideTool('count_0', { n, text: 'x' }, CALL_CONTEXT);
  if (decision instanceof Promise) throw new Error('a decision without a hook went asynchronous');
  return decision.kind;
}

/** Runs `work` while watching the event loop; resolves its result and the longest delays. */
async function watched(work) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  let gap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, RESOLUTION_MS);
  histogram.enable();
  const begin = performance.now();
  const result = await work();
  const ms = performance.now() - begin;
  // A stall that ended in the loop turn the work settled in is recorded at the monitor's next tick.
  await sleep(5 * RESOLUTION_MS);
  histogram.disable();
  clearInterval(timer);
  return { result, ms, stall: histogram.max / 1e6, gap };
}

const dir = mkdtempSync(join(os.tmpdir(), 'mcp-warden-bench-policies-'));
try {
  writeSet(dir, 0);
  const bootBegin = performance.now();
  const { app, policy } = await bootPolicyApp(
    TOOLS.map((name) => ({ name, inputSchema })),
    { policies: { dir } },
  );
  const bootMs = performance.now() - bootBegin;
  const rounds = [];
  for (let shift = 1; shift <= RELOADS; shift++) {
    // n = shift passes the old set's lowest threshold (shift - 1) and not the new one (shift).
    if (decides(policy, shift) !== 'allow') throw new Error(`round ${shift}: the old set denies`);
    const before = policy.version;
    writeSet(dir, shift);
    const round = await watched(() => policy.reload());
    if (!round.result.applied || round.result.version === before) {
      throw new Error(
        `round ${shift}: the reload was not applied: ${JSON.stringify(round.result)}`,
      );
    }
    if (decides(policy, shift) !== 'deny') throw new Error(`round ${shift}: the new set allows`);
    rounds.push(round);
  }
  await app.close();
  const report = {
    maxStallMs: Math.max(...rounds.map((r) => r.stall)),
    maxGapMs: Math.max(...rounds.map((r) => r.gap)),
    reloadMs: median(rounds.map((r) => r.ms)),
    bootMs,
    policies: POLICIES,
    reloads: RELOADS,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
