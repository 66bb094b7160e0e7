// Cold start: from spawning a server process to the result of its first tools/call, and the
// process's RSS at that moment (VmRSS from /proc: a fresh server, as a desktop client has one per
// session). Every sample is a new process started with plain `node <entry>`: no preloaded probe,
// no flag, nothing warm but the OS file cache (the samples of a run are interleaved across
// servers, and the first of each is discarded, so no server is measured cold off the disk).
//   stdio: initialize, notifications/initialized and tools/call are written at spawn; the clock
//          stops at the tools/call answer.
//   HTTP:  the clock runs from spawn through the printed URL, initialize and initialized to the
//          tools/call answer.
// The Warden rows run as deployed for a fast start (docs/stdio.md, "Cold start"): bundled into one file
// with the package's bundler (`mcp-warden bundle`, dist/cli/bundle/), and started through the launcher
// that turns on Node's compile cache (Node 22.1+; the bench's Node may predate it). The "as
// built" rows start the same server from tsc's output, one module per file. The peers (bare Node,
// SDK 1.x and 2.x) run as their packages ship (each SDK package is one prebuilt file per entry),
// with the same advantage: started through a launcher that turns the compile cache on
// (bench/servers/compile-cache-launcher.mjs). With `--against`, a twin's bundle is built by its
// ref's own bundler (its tree's dist/cli/bundle/), so a change to the bundler shows in the ratio;
// a ref without one has its bundled twins sit out.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, INITIALIZED, initializeLine } from '../lib/mcp.mjs';
import { callTool, openSession } from '../lib/mcp-http.mjs';
import { median } from '../lib/measure.mjs';
import { RawHttpConnection } from '../lib/raw-http.mjs';

const URL_PATTERN = /http:\/\/127\.0\.0\.1:\d+\/mcp/;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The Node every server of these rows starts on: the bench's own, or BENCH_NODE (a path, or the
 * name of a runtime in tools/runtimes: node22, node24), so the rows can be read on the Node
 * versions users run.
 */
const NODE = runtimeOf(process.env.BENCH_NODE);
const START_TIMEOUT_MS = 30_000;

const metrics = [
  { key: 'firstResult', label: 'spawn → first result (ms)', short: 'time', unit: 'ms' },
  { key: 'rss', label: 'RSS at first result (MB)', short: 'RSS', unit: 'MB' },
];

const rssOf = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** Spawns `server` afresh; resolves `{ child, lines }` (stderr and, for HTTP, stdout lines). */
function launch(server) {
  const child = spawn(NODE.path, server.args ?? [server.script], {
    env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'production', PORT: '0', ...server.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`${server.id} exited before its first result (code ${code}, ${signal})`)),
    ),
  );
  exited.catch(() => {});
  return { child, exited };
}

/*
 * Ends a sample the way its client would: stdin closed (stdio) or SIGTERM (HTTP), so the
 * process exits cleanly (and, on Node 22+, keeps its compile cache); SIGKILL only if it hangs.
 */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.end();
  child.kill('SIGTERM');
  const hard = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(hard);
}

/** One cold start over stdio: ms from spawn to the tools/call answer, and RSS then. */
async function stdioSample(server) {
  const started = performance.now();
  const { child, exited } = launch(server);
  try {
    child.stderr.resume();
    child.stdin.write(`${initializeLine(1)}\n${INITIALIZED}\n${server.call.line(2)}\n`);
    const answer = new Promise((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const message = JSON.parse(line);
        if (message.id === 2) resolve(message);
      });
    });
    const message = await Promise.race([answer, exited]);
    const firstResult = performance.now() - started;
    if (!server.call.ok(message)) throw new Error(`${server.id}: ${describe(message)}`);
    return { firstResult, rss: rssOf(child.pid) };
  } finally {
    await stop(child);
  }
}

/** One cold start over Streamable HTTP: spawn, the printed URL, a session, the first call. */
async function httpSample(server) {
  const started = performance.now();
  const { child, exited } = launch(server);
  try {
    const url = new Promise((resolve) => {
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on('line', (line) => {
          const found = URL_PATTERN.exec(line);
          if (found) resolve(found[0]);
        });
      }
    });
    const timeout = new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`${server.id}: no URL`)), START_TIMEOUT_MS).unref(),
    );
    const connection = await RawHttpConnection.open(await Promise.race([url, exited, timeout]));
    try {
      const headers = await openSession(connection);
      await Promise.race([callTool(connection, headers, server.call, 1), exited]);
      return { firstResult: performance.now() - started, rss: rssOf(child.pid) };
    } finally {
      connection.close();
    }
  } finally {
    await stop(child);
  }
}

function runtimeOf(wanted) {
  if (!wanted) return { path: process.execPath, version: process.versions.node };
  const path = /^node\d+$/.test(wanted)
    ? execFileSync(process.execPath, [join(ROOT, 'tools/runtimes/paths.mjs'), wanted])
        .toString()
        .trim()
    : wanted;
  return { path, version: execFileSync(path, ['-p', 'process.versions.node']).toString().trim() };
}

/** The bundler of a tree: this checkout's, or a twin's ref's (`mcp-warden bundle`'s code). */
const bundlerOf = (root) => join(root, 'dist/cli/bundle/bundle-server.js');

/**
 * The bundles of the bench's own Warden servers, built once per bench invocation: per tree (this
 * checkout, a twin's ref), each by that tree's bundler into a folder of its own.
 */
const bundles = new Map();
async function bundled(server, transport) {
  const root = server.root ?? ROOT;
  if (!bundles.has(root)) {
    const { bundleServer } = await import(pathToFileURL(bundlerOf(root)).href);
    bundles.set(root, { dir: bundleDir(root), built: new Map(), bundleServer });
  }
  const tree = bundles.get(root);
  const { bundle: script, preloadCedar = false } = server;
  const key = `${script}${preloadCedar ? ' --preload-cedar' : ''}`;
  if (!tree.built.has(key)) {
    const name = `${tree.built.size}-${script.replace(/.*\//, '').replace(/\.m?js$/, '')}`;
    const built = tree.bundleServer({
      entry: script,
      outDir: tree.dir,
      name,
      transport,
      preloadCedar,
    });
    tree.built.set(key, built);
  }
  return (await tree.built.get(key)).launcher;
}

/*
 * A deployed bundle sits beside its node_modules, where its externals resolve; these bundles sit
 * in a temporary folder, so the one external a bench server loads (Cedar, with a policy) is
 * linked in from the node_modules of the tree it was built from.
 */
function bundleDir(root) {
  const dir = mkdtempSync(join(os.tmpdir(), 'mcp-warden-bench-bundle-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(root, 'node_modules/@cedar-policy'), join(dir, 'node_modules/@cedar-policy'));
  return dir;
}

process.on('exit', () => {
  for (const { dir } of bundles.values()) rmSync(dir, { recursive: true, force: true });
});

/** The peers (bare Node, the SDK servers) start with the compile cache on, as Warden's bundles. */
const LAUNCHER = fileURLToPath(new URL('../servers/compile-cache-launcher.mjs', import.meta.url));

/** Resolves a row's entry: a bundle it names is built first. */
async function entryOf(server, transport) {
  if (server.bundle) return { ...server, script: await bundled(server, transport) };
  if (server.role) return { ...server, args: [LAUNCHER, server.script] };
  return server;
}

function coldStart(transport, servers, sample) {
  return {
    id: `cold-start-${transport}`,
    title: `Cold start, ${transport === 'stdio' ? 'stdio' : 'Streamable HTTP'}, Node ${NODE.version}: spawn → first tools/call result, and RSS then (fresh process per sample)`,
    transport,
    spawnsOwn: true,
    servers,
    labels: {
      'service-stdio': 'notes service (as built)',
      'service-http': 'notes service (as built)',
    },
    baselines: [transport === 'stdio' ? 'sdk2-stdio' : 'sdk2-http'],
    metrics,
    // A bundled twin needs its ref's own bundler: bundled by this checkout's, a change to the
    // bundler since the ref would never show in the ratio.
    twinCannotRun(twin) {
      if (twin.bundle && !existsSync(bundlerOf(twin.root)))
        return `its ref has no built bundler (${bundlerOf(twin.root)})`;
    },
    async run(server, sizes) {
      const target = await entryOf(server, transport);
      // The first start of each warms the file cache (and the compile cache, where there is one).
      if (sizes.coldStartWarmup) await sample(target);
      const samples = [];
      for (let i = 0; i < sizes.coldStarts; i++) samples.push(await sample(target));
      return {
        firstResult: median(samples.map((s) => s.firstResult)),
        rss: median(samples.map((s) => s.rss)),
      };
    },
  };
}

export const coldStartStdio = coldStart(
  'stdio',
  [
    'bare-stdio',
    'sdk1-stdio',
    'sdk2-stdio',
    'warden-stdio-lean',
    'warden-stdio-bundled',
    'warden-stdio-cedar-bundled',
    'service-stdio',
    'service-stdio-bundled',
  ],
  stdioSample,
);

export const coldStartHttp = coldStart(
  'http',
  ['sdk2-http', 'warden-http-lean', 'warden-http-bundled', 'service-http', 'service-http-bundled'],
  httpSample,
);
