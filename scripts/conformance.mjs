#!/usr/bin/env node
/*
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against the
 * conformance fixture app (test/fixtures/conformance) over Streamable HTTP.
 *
 *   node scripts/conformance.mjs [--suite active|all|pending] [--scenario <name>]
 *                                [--suite-version current|alpha] [--next]
 *                                [--requirements <revision>] [--extension tasks] [--no-build]
 *                                [any other `conformance server` option]
 *
 * Which suite:
 *   current (default)  0.1.13 from the main node_modules, run on this script's own Node (Node 20
 *                      works: later 0.1.x releases do not start on it);
 *   alpha (or --next)  0.2.0-alpha.12 from tools/runtimes (`npm run tools:install`), run on the
 *                      Node 22 binary installed there. The fixture always runs on this script's
 *                      own Node (process.execPath).
 *
 * 1. compiles the fixture with tsconfig.fixtures.json (skipped with --no-build);
 * 2. starts it on 127.0.0.1 with PORT=0 and reads the URL line it prints;
 * 3. runs `conformance server --url <url>` (default `--suite active`; not with --requirements,
 *    which chooses the scenarios itself), streaming its output;
 * 4. stops the fixture by PID, whatever happened;
 * 5. exits with the suite's exit code, after one closing line `Total: N passed, M failed`
 *    (checks, as the suite counts them; a harness failure is reported as one failed check).
 *
 * With --requirements <revision> (alpha only) the suite runs the scenarios of its frozen
 * requirement set (requirements/<revision>.yaml in the package): the `server:` list, which is
 * scored, and the `not_scored` server scenarios (extensions, pending ones), which it runs for
 * visibility only. The suite's own `Total:` line sums both, so it is echoed relabelled
 * ("all scenarios run, scored or not"), and the closing `Total:` line counts only the checks of
 * the scored scenarios, read from the checks.json files of the results folder (-o; default
 * .tmp/conformance-results/requirements-<revision>, emptied first). A scored scenario without a
 * checks.json (it crashed) counts as the suite counts it in its summary, or as one failed
 * check when it did not run at all. The not-scored ones are listed with their counts, for
 * information. The exit code is the suite's, which only scored scenarios decide; it is checked
 * against the scored count.
 *
 * With --extension tasks (alpha only; not with --requirements, --suite, --scenario or
 * --spec-version) the scenarios of the io.modelcontextprotocol/tasks extension are run and
 * scored: the `not_scored` server entries of requirements/2026-07-28.yaml whose note starts
 * with the extension's id. The suite takes one --scenario per run, so each is its own
 * `conformance server --scenario <name> -o <dir>` run, one after another, against the one
 * fixture process (the remaining options are passed to each; CONFORMANCE_TIMEOUT_MS bounds them
 * all together). The results folder (-o; default .tmp/conformance-results/extension-tasks,
 * emptied first) gets one folder per run, and each scenario counts the checks of the
 * checks.json its run wrote: SUCCESS passed, FAILURE failed (SKIPPED, INFO and WARNING are not
 * counted); a scenario that wrote none (it crashed, timed out or was skipped) counts as one
 * failed check, and so does one whose run exited non-zero with no failed check. One line per
 * scenario, then the closing `Total:` line; the exit code is 1 when any check failed.
 *
 * Environment: CONFORMANCE_BIN (path to the suite's dist/index.js, default from node_modules
 * or, for alpha, tools/runtimes), CONFORMANCE_NODE (the Node that runs the suite; default this
 * one, or tools/runtimes' Node 22 for alpha), CONFORMANCE_BOOT_TIMEOUT_MS (default 30 s),
 * CONFORMANCE_TIMEOUT_MS (the whole suite run, default 10 min).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE_MAIN = join(ROOT, 'dist-fixtures/test/fixtures/conformance/main.js');
const CONFORMANCE_PACKAGE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance');
const RUNTIMES = join(ROOT, 'tools/runtimes');
const RESULTS_ROOT = join(ROOT, '.tmp/conformance-results');
/** --extension's choices: the extension's id (its scenarios' notes start with it) and their set. */
const EXTENSIONS = {
  tasks: { id: 'io.modelcontextprotocol/tasks', revision: '2026-07-28' },
};
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
  let suiteVersion = 'current';
  let extension;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--no-build') build = false;
    else if (arg === '--next') suiteVersion = 'alpha';
    else if (arg === '--extension' || arg.startsWith('--extension=')) {
      extension = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (!Object.hasOwn(EXTENSIONS, extension ?? '')) {
        const known = Object.keys(EXTENSIONS).join(', ');
        throw new HarnessError(`--extension is one of ${known}, not ${extension}`);
      }
    } else if (arg === '--suite-version' || arg.startsWith('--suite-version=')) {
      suiteVersion = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (suiteVersion !== 'current' && suiteVersion !== 'alpha') {
        throw new HarnessError(`--suite-version is current or alpha, not ${suiteVersion}`);
      }
    } else if (arg === '--url' || arg.startsWith('--url=')) {
      throw new HarnessError('--url is set by this script (it starts the fixture itself)');
    } else passthrough.push(arg);
  }
  const chosen = (...flags) =>
    passthrough.some((a) => flags.some((flag) => a === flag || a.startsWith(`${flag}=`)));
  const valueOf = (...flags) => {
    const at = passthrough.findIndex((a) => flags.some((f) => a === f || a.startsWith(`${f}=`)));
    if (at < 0) return undefined;
    const arg = passthrough[at];
    return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : passthrough[at + 1];
  };
  const requirements = valueOf('--requirements');
  if (extension !== undefined) {
    if (suiteVersion !== 'alpha') {
      throw new HarnessError(
        '--extension needs --suite-version alpha (0.1.13 has no extension scenarios)',
      );
    }
    const other = ['--requirements', '--suite', '--scenario', '--spec-version'].find((flag) =>
      chosen(flag),
    );
    if (other) {
      throw new HarnessError(
        `--extension cannot be combined with ${other}: it chooses the scenarios and their wire`,
      );
    }
  } else if (chosen('--requirements')) {
    if (suiteVersion !== 'alpha') {
      throw new HarnessError(
        '--requirements needs --suite-version alpha (0.1.13 has no requirement sets)',
      );
    }
    if (!requirements || requirements.startsWith('-') || requirements.includes(',')) {
      throw new HarnessError('--requirements takes one revision, e.g. --requirements 2026-07-28');
    }
    const other = ['--suite', '--scenario', '--spec-version'].find((flag) => chosen(flag));
    if (other) {
      throw new HarnessError(
        `--requirements cannot be combined with ${other}: it chooses the scenarios`,
      );
    }
  } else if (!chosen('--suite') && !chosen('--scenario')) {
    passthrough.push('--suite', 'active');
  }
  let outputDir = valueOf('-o', '--output-dir');
  if ((requirements || extension) && outputDir === undefined) {
    // Our own results folder for this run, emptied first, so every checks.json is this run's.
    outputDir = join(
      RESULTS_ROOT,
      extension ? `extension-${extension}` : `requirements-${requirements}`,
    );
    rmSync(outputDir, { recursive: true, force: true });
    mkdirSync(outputDir, { recursive: true });
    passthrough.push('-o', outputDir);
  }
  return {
    build,
    passthrough,
    suiteVersion,
    requirements,
    extension,
    outputDir: outputDir === undefined ? undefined : resolve(ROOT, outputDir),
  };
}

/** The suite's entry and the Node that runs it, for the chosen suite version. */
async function suiteRuntime(suiteVersion) {
  if (suiteVersion === 'current') {
    const bin = process.env.CONFORMANCE_BIN
      ? resolve(process.env.CONFORMANCE_BIN)
      : join(CONFORMANCE_PACKAGE, 'dist/index.js');
    if (!existsSync(bin)) {
      throw new HarnessError(
        `${bin} is missing: npm install -D @modelcontextprotocol/conformance@0.1.13`,
      );
    }
    return { bin, node: process.env.CONFORMANCE_NODE || process.execPath };
  }
  const { requireRuntime } = await import('../tools/runtimes/paths.mjs');
  try {
    const bin = process.env.CONFORMANCE_BIN
      ? resolve(process.env.CONFORMANCE_BIN)
      : requireRuntime('conformance');
    const node = process.env.CONFORMANCE_NODE || requireRuntime('node22');
    if (!existsSync(bin)) throw new Error(`${bin} is missing`);
    return { bin, node };
  } catch (error) {
    throw new HarnessError(error.message);
  }
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

function conformanceVersion(bin) {
  try {
    const manifest = join(dirname(dirname(bin)), 'package.json');
    return JSON.parse(readFileSync(manifest, 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/**
 * Runs the suite against `url`, streaming its stdout; resolves with its exit code and output.
 * `relabel` rewrites a stdout line before it is echoed (the output kept is the suite's own).
 */
function runSuite(
  url,
  passthrough,
  { bin, node },
  relabel = (line) => line,
  timeoutMs = RUN_TIMEOUT_MS,
) {
  const args = [bin, 'server', '--url', url, ...passthrough];
  const shown = args.slice(1).map((arg) => (isAbsolute(arg) ? relative(ROOT, arg) || '.' : arg));
  say(`@modelcontextprotocol/conformance ${conformanceVersion(bin)}: ${shown.join(' ')}`);
  if (node !== process.execPath) say(`suite on ${node}`);
  const suite = spawn(node, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(suite);
  let output = '';
  let partial = '';
  suite.stdout.on('data', (chunk) => {
    const text = chunk.toString('utf8');
    output += text;
    const lines = (partial + text).split('\n');
    partial = lines.pop();
    for (const line of lines) process.stdout.write(`${relabel(line)}\n`);
  });
  suite.stdout.on('end', () => {
    if (partial) process.stdout.write(relabel(partial));
  });
  return new Promise((done, reject) => {
    const timer = setTimeout(() => {
      say(`the suite ran longer than ${timeoutMs} ms; stopping it`);
      void stopProcess(suite);
    }, timeoutMs);
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

/** The requirement set `revision` of the suite at `bin`: scored and not-scored server scenarios. */
function requirementSet(bin, revision) {
  const file = join(dirname(dirname(bin)), 'requirements', `${revision}.yaml`);
  if (!existsSync(file))
    throw new HarnessError(`no requirement set ${revision} (${file} is missing)`);
  let parse;
  try {
    ({ parse } = createRequire(join(RUNTIMES, 'package.json'))('yaml'));
  } catch {
    throw new HarnessError(
      'the yaml package is missing from tools/runtimes: npm run tools:install',
    );
  }
  const doc = parse(readFileSync(file, 'utf8'));
  const scored = doc?.server;
  if (
    !Array.isArray(scored) ||
    scored.length === 0 ||
    !scored.every((s) => typeof s === 'string')
  ) {
    throw new HarnessError(`${file} has no server: list of scenarios`);
  }
  const notScored = (Array.isArray(doc.not_scored) ? doc.not_scored : [])
    .filter((entry) => entry?.leg === 'server' && typeof entry.scenario === 'string')
    .map((entry) => ({
      scenario: entry.scenario,
      reason: String(entry.reason ?? 'not scored'),
      note: String(entry.note ?? ''),
    }));
  return { file, scored, notScored };
}

/** The suite's per-scenario summary lines (`✓ name: N passed, M failed`), by scenario. */
function summaryLinesOf(output) {
  const plain = output.replace(ANSI, '');
  const summary = plain.slice(Math.max(0, plain.lastIndexOf('=== SUMMARY ===')));
  const lines = new Map();
  for (const m of summary.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gm)) {
    lines.set(m[1], { passed: Number(m[2]), failed: Number(m[3]) });
  }
  return lines;
}

/** A scenario's results folder as the suite names it: `server-<scenario>-<timestamp>`. */
const SCENARIO_FOLDER = /^server-(.+)-(\d{4}-\d{2}-\d{2}T[\d-]+Z)$/;

/** A checks.json's counts: SUCCESS passed, FAILURE failed (SKIPPED, INFO, WARNING are neither). */
function countChecks(checks) {
  const by = (status) => checks.filter((check) => check?.status === status).length;
  return { passed: by('SUCCESS'), failed: by('FAILURE') };
}

/** Counts from each scenario's checks.json in `dir` (the newest folder when there are several). */
function checksFilesOf(dir) {
  const counts = new Map();
  const folders = existsSync(dir) ? readdirSync(dir).sort() : [];
  for (const folder of folders) {
    const match = SCENARIO_FOLDER.exec(folder);
    if (!match) continue;
    let checks;
    try {
      checks = JSON.parse(readFileSync(join(dir, folder, 'checks.json'), 'utf8'));
    } catch {
      counts.set(match[1], undefined); // created, but no checks.json: the scenario crashed
      continue;
    }
    if (!Array.isArray(checks)) continue;
    counts.set(match[1], countChecks(checks));
  }
  return counts;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The scored totals of a --requirements run: the checks of the set's server scenarios only,
 * from checks.json, with the summary line for a scenario that crashed before it wrote one.
 * Prints the not-scored scenarios for information.
 */
function scoredTotalsOf(set, output, outputDir) {
  const lines = summaryLinesOf(output);
  const files = checksFilesOf(outputDir);
  const countOf = (scenario) => {
    const file = files.get(scenario);
    const line = lines.get(scenario);
    if (file && line && (file.passed !== line.passed || file.failed !== line.failed)) {
      say(
        `${scenario}: checks.json has ${file.passed} passed, ${file.failed} failed but the ` +
          `summary line ${line.passed} passed, ${line.failed} failed; counting checks.json`,
      );
    }
    if (file) return { ...file, source: 'checks.json' };
    if (line) return { ...line, source: 'summary (no checks.json)' };
    return undefined;
  };

  let passed = 0;
  let failed = 0;
  const missing = [];
  for (const scenario of set.scored) {
    const count = countOf(scenario);
    if (!count) {
      missing.push(scenario);
      failed += 1;
      continue;
    }
    if (count.source !== 'checks.json') say(`${scenario}: ${count.source}`);
    passed += count.passed;
    failed += count.failed;
  }
  if (missing.length > 0) {
    say(`scored, but did not run (one failed check each): ${missing.join(', ')}`);
  }

  const listed = new Set([...set.scored, ...set.notScored.map((entry) => entry.scenario)]);
  const unlisted = [...new Set([...lines.keys(), ...files.keys()])]
    .filter((scenario) => !listed.has(scenario))
    .map((scenario) => ({ scenario, reason: 'not in the requirement set' }));
  const info = [...set.notScored, ...unlisted]
    .map((entry) => ({ ...entry, count: countOf(entry.scenario) }))
    .filter((entry) => entry.count);
  if (info.length > 0) {
    let infoPassed = 0;
    let infoFailed = 0;
    process.stdout.write(
      `\nNot scored (information only, outside the totals and the exit code):\n`,
    );
    for (const { scenario, reason, count } of info) {
      infoPassed += count.passed;
      infoFailed += count.failed;
      const mark = count.failed === 0 ? '✓' : '✗';
      process.stdout.write(
        `  ${mark} ${scenario} (${reason}): ${count.passed} passed, ${count.failed} failed\n`,
      );
    }
    process.stdout.write(
      `  not scored, ${plural(info.length, 'scenario')}: ${infoPassed} passed, ${infoFailed} failed\n`,
    );
  }
  process.stdout.write(
    `\nScored for ${set.revision} (${plural(set.scored.length, 'scenario')} in the server: list ` +
      `of requirements/${set.revision}.yaml):\n`,
  );
  return { passed, failed };
}

/**
 * One suite run (a suite, a scenario or a requirement set `set`) against the fixture at `url`.
 * Resolves with the totals and the exit code.
 */
async function runWhole(url, runtime, set, passthrough, outputDir) {
  // With a requirement set the suite's own Total sums scored and not-scored scenarios alike:
  // echo it under another name, so the only `Total:` line is the scored one printed after it.
  const relabel = set
    ? (line) =>
        line.replace(/^Total: (\d+ passed, \d+ failed)/, 'All scenarios run, scored or not: $1')
    : undefined;
  const run = await runSuite(url, passthrough, runtime, relabel);
  if (!set) {
    const totals = totalsOf(run.output);
    if (!totals) say('the suite printed no totals');
    return { totals, exitCode: run.signal || !totals ? 1 : run.code };
  }
  if (run.signal) say(`the suite was stopped (${run.signal})`);
  else if (!summaryLinesOf(run.output).size) say('the suite printed no summary');
  const totals = scoredTotalsOf(set, run.output, outputDir);
  let exitCode = run.signal ? 1 : run.code;
  const suiteSaysFailed = run.code !== 0;
  if (!run.signal && suiteSaysFailed !== totals.failed > 0) {
    say(
      `the suite exited ${run.code} but the scored checks count ${totals.failed} failed; ` +
        'counting the run as failed',
    );
    exitCode = 1;
    if (totals.failed === 0) totals.failed = 1;
  }
  if (run.signal && totals.failed === 0) totals.failed = 1;
  return { totals, exitCode };
}

/** The scenarios of extension `name`: its set's not-scored server entries whose note names it. */
function extensionScenarios(bin, name) {
  const { id, revision } = EXTENSIONS[name];
  const scenarios = requirementSet(bin, revision)
    .notScored.filter((entry) => entry.note.trim().startsWith(id))
    .map((entry) => entry.scenario);
  if (scenarios.length === 0) {
    throw new HarnessError(`requirements/${revision}.yaml lists no server scenario of ${id}`);
  }
  return { id, revision, scenarios };
}

/** The result folders of `scenario` in `dir`, oldest first. */
function scenarioFolders(dir, scenario) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((folder) => SCENARIO_FOLDER.exec(folder)?.[1] === scenario)
    .sort();
}

/** The counts of `folder`'s checks.json, or undefined when it has none (crashed, skipped). */
function checksCountOf(folder) {
  try {
    const checks = JSON.parse(readFileSync(join(folder, 'checks.json'), 'utf8'));
    return Array.isArray(checks) ? countChecks(checks) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An --extension run: one suite run per scenario (the suite takes a single --scenario), one
 * after another against the fixture at `url`, each scored from the checks.json it wrote.
 * Prints one line per scenario; resolves with the totals and the exit code.
 */
async function runExtension(url, runtime, extension, passthrough, outputDir) {
  const { id, revision, scenarios } = extension;
  say(`${id}: ${plural(scenarios.length, 'scenario')}, one suite run each`);
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  const results = [];
  for (const scenario of scenarios) {
    const left = deadline - Date.now();
    if (left <= 0) {
      results.push({ scenario, passed: 0, failed: 1, why: 'not run: out of time' });
      continue;
    }
    // Only the folder this run creates counts, even in a results folder that was not emptied.
    const before = new Set(scenarioFolders(outputDir, scenario));
    const run = await runSuite(
      url,
      ['--scenario', scenario, ...passthrough],
      runtime,
      undefined,
      left,
    );
    const written = scenarioFolders(outputDir, scenario)
      .filter((folder) => !before.has(folder))
      .at(-1);
    const count = written === undefined ? undefined : checksCountOf(join(outputDir, written));
    const exit = run.signal ?? `exit ${run.code}`;
    if (!count) {
      results.push({ scenario, passed: 0, failed: 1, why: `no checks.json, ${exit}` });
    } else if ((run.signal || run.code !== 0) && count.failed === 0) {
      results.push({ scenario, passed: count.passed, failed: 1, why: `${exit}, no failed check` });
    } else {
      results.push({ scenario, ...count });
    }
  }

  process.stdout.write(
    `\nScored for the ${id} extension (${plural(scenarios.length, 'scenario')}, the ` +
      `not_scored server entries of requirements/${revision}.yaml that name it):\n`,
  );
  let passed = 0;
  let failed = 0;
  for (const result of results) {
    passed += result.passed;
    failed += result.failed;
    const mark = result.failed === 0 ? '✓' : '✗';
    const why = result.why ? ` (${result.why})` : '';
    process.stdout.write(
      `  ${mark} ${result.scenario}: ${result.passed} passed, ${result.failed} failed${why}\n`,
    );
  }
  return { totals: { passed, failed }, exitCode: failed > 0 ? 1 : 0 };
}

async function main() {
  let exitCode;
  let totals;
  let server;
  try {
    const { build, passthrough, suiteVersion, requirements, extension, outputDir } = parseArgs(
      process.argv.slice(2),
    );
    const runtime = await suiteRuntime(suiteVersion);
    const set = requirements
      ? { ...requirementSet(runtime.bin, requirements), revision: requirements }
      : undefined;
    const extensionSet = extension ? extensionScenarios(runtime.bin, extension) : undefined;
    if (build) compileFixture();
    const fixture = startFixture();
    server = fixture.server;
    const url = await fixture.url;
    say(`fixture (pid ${server.pid}, Node ${process.version}) serving ${url}`);
    ({ totals, exitCode } = extensionSet
      ? await runExtension(url, runtime, extensionSet, passthrough, outputDir)
      : await runWhole(url, runtime, set, passthrough, outputDir));
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
