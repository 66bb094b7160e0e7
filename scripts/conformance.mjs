#!/usr/bin/env node
/*
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
 * pinned to 0.1.13: later 0.1.x releases do not start on Node 20) against the
 * conformance fixture app (test/fixtures/conformance) over Streamable HTTP.
 *
 *   node scripts/conformance.mjs [--suite active|all|pending] [--scenario <name>]
 *                                [--no-build] [any other `conformance server` option]
 *
 * 1. compiles the fixture with tsconfig.fixtures.json (skipped with --no-build);
 * 2. starts it on 127.0.0.1 with PORT=0 and reads the URL line it prints;
 * 3. runs `conformance server --url <url>` (default `--suite active`), streaming its output;
 * 4. stops the fixture by PID, whatever happened;
 * 5. exits with the suite's exit code, after one closing line `Total: N passed, M failed`
 *    (checks, as the suite counts them; a harness failure is reported as one failed check).
 *
 * Environment: CONFORMANCE_BIN (path to the suite's dist/index.js, default from
 * node_modules), CONFORMANCE_BOOT_TIMEOUT_MS (default 30 s), CONFORMANCE_TIMEOUT_MS
 * (the whole suite run, default 10 min).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE_MAIN = join(ROOT, 'dist-fixtures/test/fixtures/conformance/main.js');
const CONFORMANCE_PACKAGE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance');
const CONFORMANCE_BIN = process.env.CONFORMANCE_BIN
  ? resolve(process.env.CONFORMANCE_BIN)
  : join(CONFORMANCE_PACKAGE, 'dist/index.js');
const BOOT_TIMEOUT_MS = Number(process.env.CONFORMANCE_BOOT_TIMEOUT_MS ?? 30_000);
const RUN_TIMEOUT_MS = Number(process.env.CONFORMANCE_TIMEOUT_MS ?? 600_000);
const STOP_TIMEOUT_MS = 5_000;
const URL_LINE = /^http:\/\/127\.0\.0\.1:\d+\/mcp$/;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** Started child processes, so a signal to this script stops them too. */
const children = new Set();

class HarnessError extends Error {}

function say(line) {
  process.stderr.write(`conformance: ${line}\n`);
}

/** Splits our arguments into the script's own flags and those passed to `conformance server`. */
function parseArgs(argv) {
  const passthrough = [];
  let build = true;
  for (const arg of argv) {
    if (arg === '--no-build') build = false;
    else if (arg === '--url' || arg.startsWith('--url=')) {
      throw new HarnessError('--url is set by this script (it starts the fixture itself)');
    } else passthrough.push(arg);
  }
  const chosen = (flag) => passthrough.some((a) => a === flag || a.startsWith(`${flag}=`));
  if (!chosen('--suite') && !chosen('--scenario')) passthrough.push('--suite', 'active');
  return { build, passthrough };
}

function compileFixture() {
  say('compiling the fixture (npx tsc -p tsconfig.fixtures.json)');
  const result = spawnSync('npx', ['tsc', '-p', 'tsconfig.fixtures.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    throw new HarnessError(`tsc failed (${result.error?.message ?? `exit ${result.status}`})`);
  }
}

/** Forwards a child's output lines to our stderr, prefixed, so they never mix into stdout. */
function forward(stream, prefix) {
  createInterface({ input: stream }).on('line', (line) => {
    process.stderr.write(`${prefix} ${line}\n`);
  });
}

/** Starts the fixture and resolves with it and the URL it prints (no polling, no sleeps). */
function startFixture() {
  if (!existsSync(FIXTURE_MAIN)) throw new HarnessError(`${FIXTURE_MAIN} is missing (build it)`);
  const server = spawn(process.execPath, [FIXTURE_MAIN], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(server);
  server.once('exit', () => children.delete(server));
  forward(server.stderr, '[fixture]');

  const url = new Promise((resolveUrl, reject) => {
    const lines = createInterface({ input: server.stdout });
    const timer = setTimeout(() => {
      reject(new HarnessError(`the fixture printed no URL within ${BOOT_TIMEOUT_MS} ms`));
    }, BOOT_TIMEOUT_MS);
    const onExit = (code, signal) => {
      clearTimeout(timer);
      reject(new HarnessError(`the fixture exited before it printed its URL (${signal ?? code})`));
    };
    server.once('error', (error) => {
      clearTimeout(timer);
      reject(new HarnessError(`could not start the fixture: ${error.message}`));
    });
    server.once('exit', onExit);
    let found = false;
    lines.on('line', (line) => {
      if (!found && URL_LINE.test(line.trim())) {
        found = true;
        clearTimeout(timer);
        server.off('exit', onExit);
        resolveUrl(line.trim());
      } else {
        process.stderr.write(`[fixture] ${line}\n`);
      }
    });
  });
  return { server, url };
}

/** Stops the fixture by PID: SIGTERM (the app closes on it), then SIGKILL if it lingers. */
async function stopProcess(child) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  try {
    process.kill(child.pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  let timer;
  const lingering = new Promise((done) => {
    timer = setTimeout(() => done('timeout'), STOP_TIMEOUT_MS);
  });
  if ((await Promise.race([exited, lingering])) === 'timeout') {
    say(`pid ${child.pid} ignored SIGTERM; killing it`);
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
  }
  clearTimeout(timer);
}

function conformanceVersion() {
  try {
    const manifest = join(dirname(dirname(CONFORMANCE_BIN)), 'package.json');
    return JSON.parse(readFileSync(manifest, 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** Runs the suite against `url`, streaming its stdout; resolves with its exit code and output. */
function runSuite(url, passthrough) {
  const args = [CONFORMANCE_BIN, 'server', '--url', url, ...passthrough];
  say(`@modelcontextprotocol/conformance ${conformanceVersion()}: ${args.slice(1).join(' ')}`);
  const suite = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(suite);
  let output = '';
  suite.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    output += chunk.toString('utf8');
  });
  return new Promise((done, reject) => {
    const timer = setTimeout(() => {
      say(`the suite ran longer than ${RUN_TIMEOUT_MS} ms; stopping it`);
      void stopProcess(suite);
    }, RUN_TIMEOUT_MS);
    suite.once('error', (error) => {
      clearTimeout(timer);
      reject(new HarnessError(`could not start the suite: ${error.message}`));
    });
    suite.once('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(suite);
      done({ code: code ?? 1, signal, output });
    });
  });
}

/** The suite's closing counts: its `Total:` line, or a single scenario's `Passed: x/y, z failed`. */
function totalsOf(output) {
  const plain = output.replace(ANSI, '');
  const totals = [...plain.matchAll(/Total: (\d+) passed, (\d+) failed/g)].at(-1);
  if (totals) return { passed: Number(totals[1]), failed: Number(totals[2]) };
  const single = [...plain.matchAll(/Passed: (\d+)\/\d+, (\d+) failed/g)].at(-1);
  if (single) return { passed: Number(single[1]), failed: Number(single[2]) };
  return undefined;
}

async function main() {
  let exitCode;
  let totals;
  let server;
  try {
    const { build, passthrough } = parseArgs(process.argv.slice(2));
    if (!existsSync(CONFORMANCE_BIN)) {
      throw new HarnessError(
        `${CONFORMANCE_BIN} is missing: npm install -D @modelcontextprotocol/conformance@0.1.13`,
      );
    }
    if (build) compileFixture();
    const fixture = startFixture();
    server = fixture.server;
    const url = await fixture.url;
    say(`fixture (pid ${server.pid}) serving ${url}`);
    const run = await runSuite(url, passthrough);
    totals = totalsOf(run.output);
    exitCode = run.signal || !totals ? 1 : run.code;
    if (!totals) say('the suite printed no totals');
  } catch (error) {
    say(error instanceof HarnessError ? error.message : (error?.stack ?? String(error)));
    exitCode = 1;
  } finally {
    if (server) await stopProcess(server);
  }
  // A run without totals (the harness failed, or the suite crashed) counts as one failed check.
  const { passed, failed } = totals ?? { passed: 0, failed: 1 };
  process.stdout.write(`Total: ${passed} passed, ${failed} failed\n`);
  return exitCode;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    say(`${signal}: stopping`);
    Promise.all([...children].map(stopProcess)).finally(() => process.exit(1));
  });
}

process.exitCode = await main();
