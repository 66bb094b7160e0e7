// The Cedar policy on its own, in a process of its own (bench/policy/): no transport, no load
// driver, so the figures are the policy's. Each row's script is the server entry in the catalog,
// so `--against` runs the ref's copy of it. No baseline runs beside them: the closures they
// replace cost next to nothing alone, and the HTTP rows (throughput-http-cedar) compare the two
// on the same server.
//   policy-decision-cpu: CPU per `McpPolicy.decideTool`, the same request (cached) and a new
//     argument every time to a set that reads it (evaluated), median over batches
//     (decide-cpu.mjs).
//   policy-reload-stall: the longest event-loop stall while `McpPolicy.reload()` applies a
//     rewritten set of 1,000 policies, and how long the reload takes (reload-stall.mjs).
import { runJsonChild } from '../lib/json-child.mjs';

/** The Cedar decision's CPU bound, cached (µs); the uncached figure is measured, not bound. */
export const DECISION_CACHED_TARGET_US = 15;
/** The longest event-loop stall a reload of 1,000 policies may cause (ms). */
export const RELOAD_STALL_TARGET_MS = 50;

export const policyDecisionCpu = {
  id: 'policy-decision-cpu',
  title:
    'Cedar policy, CPU per tools/call decision (µs, in process: `McpPolicy.decideTool` in a loop, median over batches)',
  transport: 'http',
  spawnsOwn: true,
  servers: ['warden-cedar-decide'],
  baselines: [],
  metrics: [
    { key: 'cachedUs', label: 'same request, cached (µs)', short: 'cached', unit: 'µs' },
    {
      key: 'cachedInputUs',
      label: 'same request, a rule reads the argument, cached (µs)',
      short: 'cached, argument read',
      unit: 'µs',
    },
    {
      key: 'variedUs',
      label: 'new argument each, a rule reads it, evaluated (µs)',
      short: 'varied',
      unit: 'µs',
    },
  ],
  async run(server, sizes) {
    const { batches, size } = sizes.policyDecision;
    const args = ['--batches', String(batches), '--size', String(size)];
    const report = await runJsonChild(server.script, args, server.id);
    return {
      cachedUs: report.cachedUs,
      cachedInputUs: report.cachedInputUs,
      variedUs: report.variedUs,
    };
  },
};

export const policyReloadStall = {
  id: 'policy-reload-stall',
  title:
    'Cedar policy hot reload of 1,000 policies (10 tools, `{ dir }`): the longest event-loop stall meanwhile, and the reload time',
  transport: 'http',
  spawnsOwn: true,
  servers: ['warden-cedar-reload'],
  baselines: [],
  metrics: [
    { key: 'maxStallMs', label: 'longest stall (ms)', short: 'stall', unit: 'ms' },
    { key: 'maxGapMs', label: 'longest 1 ms timer gap (ms)', short: 'gap', unit: 'ms' },
    { key: 'reloadMs', label: 'reload (ms)', short: 'reload', unit: 'ms' },
    { key: 'bootMs', label: 'boot with the set (ms)', short: 'boot', unit: 'ms' },
  ],
  async run(server, sizes) {
    const args = ['--reloads', String(sizes.policyReloads)];
    const { maxStallMs, maxGapMs, reloadMs, bootMs } = await runJsonChild(
      server.script,
      args,
      server.id,
    );
    return { maxStallMs, maxGapMs, reloadMs, bootMs };
  },
};
