// `npm run bench`: every server under test as its own process on loopback, every workload,
// interleaved runs (a fresh process per measurement, the server order rotated each run), one
// Markdown table per workload with medians and ratios to the baselines measured in this same
// invocation. Writes bench/results/<date>.md. Needs `npm run build` first.
//
//   node bench/run.mjs [--quick] [--runs N] [--only latency,throughput,=throughput-http,...] [--out FILE]
//
// --quick: tiny counts and one run, for CI; every server and workload still runs, and any error
// (a failed call, a crashed server) exits non-zero. It writes no results file unless --out.
// --profile DIR: servers run with --cpu-prof into DIR (written when a server exits cleanly, as the
// Warden servers do on SIGTERM); pair it with --only and --runs 1.
// --against REF: every Warden and notes-service row also runs as built from the git ref REF (in a
// temporary worktree), interleaved in the same run; each table shows the ratio to it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareAgainst, twinsOf } from './lib/against.mjs';
import { createBenchAuth } from './lib/bench-auth.mjs';
import { benchDataDir, catalog, serversFor } from './lib/catalog.mjs';
import { withTimeout } from './lib/measure.mjs';
import { redisReachable } from './lib/redis-check.mjs';
import { format, summarize, table } from './lib/report.mjs';
import { crashed, killAllNow, startServer, stopAll } from './lib/spawn-server.mjs';
import { StdioClient } from './lib/stdio-client.mjs';
import { checkTargets } from './lib/targets.mjs';
import { elicitationHttp } from './workloads/elicitation.mjs';
import { hostileBodyHttp } from './workloads/hostile-body.mjs';
import { latencyHttp, latencyStdio } from './workloads/latency.mjs';
import { memoryHttp } from './workloads/memory.mjs';
import { sdkClientHttp } from './workloads/sdk-client.mjs';
import { setupHttp } from './workloads/setup.mjs';
import {
  throughputHttp,
  throughputHttpAuth,
  throughputHttpExchange,
  throughputHttpTwoServers,
  throughputHttpCedar,
  throughputHttpAudit,
  throughputHttpServiceWrites,
  throughputHttpCedarVaried,
  throughputHttpOtel,
  throughputHttpZod,
  throughputStdio,
} from './workloads/throughput.mjs';
import { policyDecisionCpu, policyReloadStall } from './workloads/policy.mjs';
import { throughputHttpModern } from './workloads/throughput-modern.mjs';
import { memoryHttpTasks, throughputHttpTasks } from './workloads/tasks.mjs';
import { throughputCluster } from './workloads/throughput-cluster.mjs';
import { coldStartHttp, coldStartStdio } from './workloads/cold-start.mjs';
import { soakHostile } from './workloads/soak-hostile.mjs';
import { consolePush } from './workloads/console-push.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string' },
    profile: { type: 'string' },
    against: { type: 'string' },
  },
});

// Counts are either a number of steps or a time window (whichever ends first); windows give every
// server the same measuring time however fast it is.
const SIZES = flags.quick
  ? {
      runs: 1,
      warmup: { count: 20 },
      latency: { count: 200 },
      throughput: { count: 200 },
      setup: { count: 50 },
      memorySessions: 50,
      memoryTasks: 200,
      elicitation: { count: 20 },
      hostile: { reps: 1 },
      consolePush: { samples: 10 },
      policyDecision: { batches: 2, size: 200 },
      policyReloads: 1,
      coldStarts: 1,
      // Smoke mode skips the sample that warms the file and compile caches: its figures mean
      // nothing, and the extra spawn of every server was a tenth of the smoke run.
      coldStartWarmup: false,
      soakDurationMs: 6_000,
      timeoutMs: 30_000,
    }
  : {
      runs: 3,
      warmup: { seconds: 1 },
      latency: { count: 5_000, seconds: 5 },
      throughput: { seconds: 5 },
      setup: { seconds: 5 },
      memorySessions: 1_000,
      memoryTasks: 10_000,
      elicitation: { count: 1_000, seconds: 5 },
      hostile: { reps: 5 },
      consolePush: { samples: 200 },
      policyDecision: { batches: 15, size: 2_000 },
      policyReloads: 5,
      coldStarts: 5,
      coldStartWarmup: true,
      soakDurationMs: 10_000,
      timeoutMs: 180_000,
    };
const runs = Number(flags.runs ?? SIZES.runs);
const WORKLOADS = [
  coldStartStdio,
  coldStartHttp,
  latencyHttp,
  latencyStdio,
  throughputHttp,
  throughputHttpAuth,
  throughputHttpExchange,
  throughputHttpTwoServers,
  throughputHttpOtel,
  throughputHttpZod,
  throughputHttpCedar,
  throughputHttpAudit,
  throughputHttpServiceWrites,
  throughputHttpCedarVaried,
  throughputHttpModern,
  throughputHttpTasks,
  throughputCluster,
  throughputStdio,
  sdkClientHttp,
  setupHttp,
  memoryHttp,
  memoryHttpTasks,
  elicitationHttp,
  soakHostile,
  consolePush,
  policyDecisionCpu,
  policyReloadStall,
  // Last: its monitor stays on in quick mode's shared servers once started.
  hostileBodyHttp,
].filter(
  (w) =>
    !flags.only ||
    // A name matches ids by prefix; `=name` matches that id alone.
    flags.only
      .split(',')
      .some((name) => (name.startsWith('=') ? w.id === name.slice(1) : w.id.startsWith(name))),
);

const SERVICE_NOTE =
  '_notes service_ rows: the real service entry point (`dist/app/main.js` / `main-stdio.js`) with ' +
  'its own tools and policy: `search_notes` over an empty `DATA_DIR` for calls, `delete_note` ' +
  '(which its policy asks about) for the elicitation round trip. It keeps its default bound of ' +
  '1,000 sessions, so it sits out session setup and memory. Its per-caller quota of 1,000 calls ' +
  'per second (the bench is one caller) is raised with its `CALLS_PER_SECOND_PER_PRINCIPAL` ' +
  'setting, so its rows measure the service, not the quota.';

const log = (line) => process.stderr.write(`${line}\n`);

// Full mode: a fresh process per measurement, so no workload inherits another's sessions or
// garbage. Quick mode: one process per server for all workloads, since starting ~30 Nest apps
// would take most of CI's minute (the numbers mean nothing there anyway).
const shared = new Map();

const nodeFlags = flags.profile ? ['--cpu-prof', `--cpu-prof-dir=${flags.profile}`] : [];

async function acquire(server) {
  if (!flags.quick) return startServer(server, nodeFlags);
  if (!shared.has(server.id)) shared.set(server.id, await startServer(server, nodeFlags));
  return shared.get(server.id);
}

/** One measurement: the workload against the server, which must not crash meanwhile. */
async function measure(workload, server) {
  // A cold-start workload spawns a fresh process for every sample itself.
  if (workload.spawnsOwn) {
    return withTimeout(
      workload.run(server, SIZES),
      SIZES.timeoutMs,
      `${workload.id} on ${server.id}`,
    );
  }
  const handle = await acquire(server);
  try {
    const target = {
      ...server,
      url: handle.url,
      memory: handle.memory,
      cpu: handle.cpu,
      loopDelay: handle.loopDelay,
      // One initialized client per stdio process (a pipe is one session).
      stdio: () => (handle.stdio ??= new StdioClient(handle.child).ready()),
    };
    return await withTimeout(
      Promise.race([workload.run(target, SIZES), handle.crashed]),
      SIZES.timeoutMs,
      `${workload.id} on ${server.id}`,
    );
  } finally {
    if (!flags.quick) await handle.stop();
  }
}

function describeMachine(startLoad) {
  const version = (name) => {
    try {
      return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'))
        .version;
    } catch {
      return '?';
    }
  };
  let commit = '?';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
    // Measured before a commit (as `--against HEAD` is), the rows are the working tree's, not HEAD's.
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: root,
    }).toString();
    if (changed.trim()) commit += ' with uncommitted changes';
  } catch {
    // not a git checkout
  }
  const load = (values) => values.map((v) => v.toFixed(2)).join(' ');
  return [
    `- ${flags.quick ? 'quick smoke mode (numbers mean nothing)' : 'full mode'}, ${runs} interleaved run(s) per server, median shown; commit ${commit}` +
      (flags.against ? `, against ${flags.against} (its rows marked "@ ${flags.against}")` : ''),
    `- Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; load average ${load(startLoad)} at start, ${load(os.loadavg())} at end (the driver shares the machine with the server, and anything else running)`,
    `- @modelcontextprotocol/sdk ${version('@modelcontextprotocol/sdk')}, @modelcontextprotocol/server ${version('@modelcontextprotocol/server')} + @modelcontextprotocol/node ${version('@modelcontextprotocol/node')}`,
    `- every figure is from ${flags.quick ? 'one process per server, shared by all workloads' : 'a fresh server process'}, after a warm-up; ratios are server ÷ baseline ` +
      '(above 1× is faster for calls/s and sessions/s, slower for latency, bigger for memory)',
  ].join('\n');
}

async function main() {
  if (!existsSync(join(root, 'dist/index.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const startLoad = os.loadavg();
  const { dataDir, remove: removeDataDir } = benchDataDir('mcp-warden-bench-');
  const auth = await createBenchAuth();
  const servers = catalog(dataDir, auth);
  const fixtures = WORKLOADS.some((workload) => workload.needsFixtures);
  const against = flags.against
    ? prepareAgainst(flags.against, root, log, { fixtures })
    : undefined;
  if (against) {
    // An interrupted run (Ctrl-C) removes the ref's worktree too.
    cleanupOnSignal = against.cleanup;
    // Only the rows the ref's own catalog has (a row added since calls a tool the ref lacks),
    // and those that say every ref serves them (`twinAnyRef`).
    const theirs = await import(pathToFileURL(join(against.dir, 'bench/lib/catalog.mjs')).href);
    const known = new Set(theirs.catalog(dataDir, auth).map((server) => server.id));
    const shared = servers.filter((server) => known.has(server.id) || server.twinAnyRef);
    servers.push(...twinsOf(shared, root, against.dir, flags.against));
  }
  const labels = Object.fromEntries(servers.map((s) => [s.id, s.label]));
  const sections = [];
  const medians = {};
  const raw = {};
  try {
    for (const workload of WORKLOADS) {
      // Cluster rows need Redis: without one the workload sits out (CI requires it, see .ci/run).
      if (workload.needsRedis && !(await redisReachable(workload.id, log))) continue;
      let subjects = serversFor(workload, servers);
      // A cluster row in a workload that does not need Redis sits out alone (the same rules).
      const onRedis = subjects.filter((server) => server.needsRedis).map((server) => server.id);
      if (onRedis.length && !(await redisReachable(`${workload.id} (${onRedis.join(', ')})`, log)))
        subjects = subjects.filter((server) => !server.needsRedis);
      // A twin whose ref lacks what the workload runs besides its script sits out, said so.
      subjects = subjects.filter((server) => {
        const why = server.twinOf && workload.twinCannotRun?.(server);
        if (why) log(`[${workload.id}] ${server.id} sits out: ${why}`);
        return !why;
      });
      const results = new Map(subjects.map((server) => [server.id, []]));
      const began = performance.now();
      for (let run = 0; run < runs; run++) {
        // Rotating the order keeps any one server from always running first (or last).
        const order = subjects.map((_, i) => subjects[(i + run) % subjects.length]);
        for (const server of order) {
          const result = await measure(workload, server);
          results.get(server.id).push(result);
          const shown = Object.entries(result)
            .map(([key, value]) => `${key}=${format(value, key === 'rate' ? '/s' : '')}`)
            .join(' ');
          log(`[${workload.id}] run ${run + 1}/${runs} ${server.id}: ${shown}`);
        }
      }
      // Each workload's wall time, so a slow one shows in CI's log (its budget, docs/testing.md).
      log(`[${workload.id}] took ${((performance.now() - began) / 1000).toFixed(1)} s`);
      raw[workload.id] = Object.fromEntries(results);
      const rows = summarize(subjects, results);
      medians[workload.id] = Object.fromEntries(rows.map((row) => [row.server.id, row.median]));
      for (const t of workload.tables ?? [{ title: workload.title, metrics: workload.metrics }]) {
        sections.push(
          table(t.title, t.metrics, rows, workload.baselines, against && flags.against),
        );
      }
    }
    // A server that died between measurements (quick mode keeps them all running) fails the run.
    if (crashed().length) throw crashed()[0];
  } finally {
    await auth.close();
    removeDataDir();
    against?.cleanup();
  }
  const targets = checkTargets(medians, labels, against?.commit);
  const date = new Date().toISOString().slice(0, 10);
  let doc = [
    `# MCP Warden benchmarks, ${date}`,
    '',
    describeMachine(startLoad),
    '',
    SERVICE_NOTE,
    '',
    ...sections.flatMap((section) => [section, '']),
    ...(targets.length ? ['## Targets', '', ...targets, ''] : []),
  ].join('\n');
  const prettier = await import('prettier');
  doc = await prettier.format(doc, { parser: 'markdown', proseWrap: 'preserve' });
  process.stdout.write(doc);
  const out = flags.out ?? (flags.quick ? undefined : join(root, 'bench/results', `${date}.md`));
  if (out) {
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(out, doc);
    // Every run's figures, unrounded, for comparing days or re-reading a table.
    const json = out.replace(/(\.md)?$/, '.json');
    writeFileSync(json, JSON.stringify({ date, sizes: SIZES, runs: raw }, null, 1) + '\n');
    log(`written to ${out} and ${json}`);
  }
}

/** What an interrupted run must still undo (the `--against` worktree), once main has it. */
let cleanupOnSignal = () => {};

process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () =>
    stopAll()
      .finally(() => cleanupOnSignal())
      .finally(() => process.exit(130)),
  );
}
main()
  .then(
    () => 0,
    (error) => {
      log(`bench failed: ${error?.stack ?? error}`);
      return 1;
    },
  )
  // Exit explicitly: a socket some server left half-open must not keep the bench alive.
  .then((code) => stopAll().finally(() => process.exit(code)));
