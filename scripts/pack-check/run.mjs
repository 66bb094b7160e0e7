#!/usr/bin/env node
// @ts-check
/*
 * The packaging check: what a team gets when it adds the published package to the project it
 * already has.
 *
 *   node scripts/pack-check/run.mjs [--out <results.json>] [--keep] [--only <app>]
 *
 * 1. `npm pack` builds the tarball (prepack: a clean build, ESM and CommonJS) in a copy of the
 *    package's sources, so the checkout's dist/ is left as it is, into a temp dir, and checks its
 *    file list: library files only (no src/, test/, bench/, scripts/, .ci/, dist/app/, no source
 *    maps or spec files), with every `exports` and `bin` target present.
 * 2. The consumer matrix (matrix.mjs): Nest 11 (CommonJS, Jest + ts-jest) and Nest 12 (ESM,
 *    Vitest), each on Express and Fastify, laid out from their CLI's files (apps/) with the
 *    shared sources (app-src/: an `@McpTool()` provider with a DTO, an app middleware, the
 *    global prefix `api`, the app's own spec). Per app: `npm install` (no EBADENGINE for
 *    mcp-warden on this Node), no nested copy of a peer, `tsc -p tsconfig.build.json`; then on
 *    each of its Node versions:
 *    - one copy: `require()` and `import()` of both entry points give the same classes;
 *    - policy CLI (policy-cli.mjs): the installed `mcp-warden` bin on a copy of policies/ (the
 *      worked example): `policy schema`, `validate` and `test` pass; a typo'd action and a
 *      flipped case each exit 1, named;
 *    - HTTP: the built app, booted with bearer auth, answers the 401 challenge, serves the
 *      protected resource metadata, Streamable HTTP, the SSE pair and the operator console's
 *      routes, with its middleware run; on the app's first Node, the same again from the bundle
 *      the installed `mcp-warden bundle` made of it (esbuild is the app's dev dependency);
 *    - stdio, bundled (stdio-drive.mjs), on the app's first Node: the app's stdio entry
 *      (app-src/main-stdio.ts) bundled by `mcp-warden bundle --transport stdio` answers one
 *      tools/call on stdin and exits 0 when stdin ends;
 *    - tests: the app's spec in its own runner (`jest`, `vitest run`): the testing module,
 *      `McpTestClient`, and the HTTP app inside the runner.
 *    A warning Node printed fails the step.
 *
 * Prints one line for the tarball and one per app and Node, and exits non-zero on any failure.
 * With --out, writes `{ tarball: { ok }, apps: [{ name, ok, detail }] }` for CI's summary. The
 * temp dir is removed unless --keep. NODE_OPTIONS and npm's npm_* variables are not passed on.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { requireRuntime } from '../../tools/runtimes/paths.mjs';
import { checkSingleCopies, layOutApp } from './app-layout.mjs';
import { bearerSetup, driveHttpApp } from './http-drive.mjs';
import { MATRIX } from './matrix.mjs';
import { checkPolicyCli, layOutPolicies } from './policy-cli.mjs';
import { CheckError, checkNoWarnings, childEnv, run } from './processes.mjs';
import { driveStdioApp } from './stdio-drive.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FORBIDDEN = [
  /^(src|test|bench|scripts|\.ci|dist\/app|dist\/bundle|dist-fixtures)\//,
  /\.map$/,
  /\.spec\./,
];
const REQUIRED = ['package.json', 'LICENSE', 'README.md', 'dist/cjs/package.json'];
const INSTALL_TIMEOUT_MS = 300_000;
/** Loads both entry points both ways, in the app's folder; exits 1 on a second copy. */
const ONE_COPY = `require('reflect-metadata');
const main = require('mcp-warden');
const testing = require('mcp-warden/testing');
Promise.all([import('mcp-warden'), import('mcp-warden/testing')]).then(([esm, esmTesting]) => {
  const same = main.McpWarden === esm.McpWarden && main.McpModule === esm.McpModule &&
    testing.McpTestClient === esmTesting.McpTestClient;
  if (!same) { console.error('require() and import() gave two copies'); process.exit(1); }
});
`;

/** One line of the report, on stdout. */
function say(line) {
  process.stdout.write(`${line}\n`);
}

/** What the package's prepack build reads, besides node_modules (linked, not copied). */
const PACKAGE_SOURCES = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'src',
  'scripts/commonjs',
];

/**
 * A copy of the package's sources in `dir`, where `npm pack` runs: its prepack's clean build
 * then writes the copy's dist/, not the checkout's, which the bench and the other CI stages
 * running beside this check use.
 */
function stagePackage(dir) {
  for (const entry of PACKAGE_SOURCES) {
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** `npm pack` into `dir`; returns the tarball's path and its file list (without `package/`). */
async function packTarball(dir) {
  const stage = stagePackage(join(dir, 'package-source'));
  await run('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: stage,
    timeoutMs: 180_000,
  });
  const name = readdirSync(dir).find((file) => file.endsWith('.tgz'));
  if (!name) throw new CheckError('npm pack wrote no tarball');
  const tarball = join(dir, name);
  const { stdout } = await run('tar', ['-tzf', tarball], { cwd: dir });
  const files = stdout
    .split('\n')
    .filter((line) => line && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
  return { tarball, name, files };
}

/** Every `exports`/`main`/`types`/`bin` target of the package.json, as tarball paths. */
function declaredTargets(pkg) {
  const targets = new Map();
  const add = (key, target) =>
    typeof target === 'string'
      ? targets.set(target.replace(/^\.\//, ''), key)
      : Object.values(target).forEach((nested) => add(key, nested));
  add('main', pkg.main);
  add('types', pkg.types);
  // `bin` is a path or a map of command names to paths; a missing one breaks `npx mcp-warden`.
  if (pkg.bin) add('bin', pkg.bin);
  for (const [subpath, entry] of Object.entries(pkg.exports ?? {})) add(subpath, entry);
  return targets;
}

/** Checks the tarball's contents. */
function checkTarball({ files }) {
  const forbidden = files.filter((file) => FORBIDDEN.some((pattern) => pattern.test(file)));
  if (forbidden.length > 0) {
    throw new CheckError(`non-library files packed: ${forbidden.slice(0, 10).join(', ')}`);
  }
  const missing = REQUIRED.filter((file) => !files.includes(file));
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  for (const [target, key] of declaredTargets(pkg)) {
    if (!files.includes(target)) missing.push(`${target} (${key})`);
  }
  if (missing.length > 0) throw new CheckError(`missing from the tarball: ${missing.join(', ')}`);
}

/** The Node binary of a matrix entry: a runtime of tools/runtimes, or this one. */
function nodeBinary(name) {
  return name === 'machine' ? process.execPath : requireRuntime(name);
}

/** The app's test command, as its package.json's `test` script runs it. */
function testCommand(app, node) {
  return app.runner === 'jest'
    ? [node, ['node_modules/jest/bin/jest.js', '--ci']]
    : [node, ['node_modules/vitest/vitest.mjs', 'run']];
}

/*
 * `--prefer-offline` trusts the npm cache's package metadata. When that is older than a package
 * published since (a dependency asking for a version the cached metadata lacks: ETARGET), the
 * install is run again with the metadata revalidated.
 */
async function npmInstall(dir) {
  const args = ['install', '--no-audit', '--no-fund', '--loglevel=warn'];
  try {
    return await run('npm', [...args, '--prefer-offline'], {
      cwd: dir,
      timeoutMs: INSTALL_TIMEOUT_MS,
    });
  } catch (error) {
    if (!/\bETARGET\b/.test(error.output ?? '')) throw error;
    return run('npm', [...args, '--prefer-online'], { cwd: dir, timeoutMs: INSTALL_TIMEOUT_MS });
  }
}

/**
 * One app on one Node: one copy, the policy CLI, HTTP, its own tests.
 * @param {import('./policy-cli.mjs').PolicyExpectations} policies
 */
async function checkOnNode(app, dir, nodeName, bearer, policies, bundled) {
  const node = nodeBinary(nodeName);
  const env = childEnv({ PATH: `${dirname(node)}:${process.env.PATH}` });
  const { stdout: version } = await run(node, ['--version'], { cwd: dir, env });
  const report = { name: `${app.name} (node ${version.trim().slice(1)})`, ok: false, step: '' };
  const started = Date.now();
  try {
    report.step = 'one copy';
    checkNoWarnings(report.step, (await run(node, ['one-copy.cjs'], { cwd: dir, env })).stderr);
    report.step = 'policy CLI';
    await checkPolicyCli(dir, env, policies);
    report.step = 'HTTP';
    checkNoWarnings(report.step, await driveHttpApp(dir, node, bearer));
    if (bundled) {
      report.step = 'HTTP, bundled';
      checkNoWarnings(report.step, await driveHttpApp(dir, node, bearer, 'dist/bundle/main.mjs'));
      report.step = 'stdio, bundled';
      checkNoWarnings(report.step, await driveStdioApp(dir, node, 'dist/bundle/main-stdio.mjs'));
    }
    report.step = `${app.runner} tests`;
    const [command, args] = testCommand(app, node);
    const tests = await run(command, args, { cwd: dir, env, timeoutMs: 180_000 });
    checkNoWarnings(report.step, tests.stderr);
    report.ok = true;
    report.detail =
      'one copy for require() and import(); ' +
      `mcp-warden policy schema, validate and test (${policies.cases} cases) pass, ` +
      'a typo and a flipped case fail, named; 401 challenge, resource metadata, Streamable ' +
      'HTTP, the SSE pair and the console under /api with the app middleware' +
      (bundled
        ? ', the same from its `mcp-warden bundle` bundle; a tools/call over stdio through ' +
          'its `--transport stdio` bundle; '
        : '; ') +
      `${app.runner} spec passed`;
  } catch (error) {
    report.detail = `FAIL at ${report.step}: ${error.message}`;
    report.output = error.output ?? error.stack;
  }
  report.seconds = Math.round((Date.now() - started) / 1000);
  return report;
}

/** One app: layout, install and build once, then each of its Node versions in turn. */
async function checkApp(app, work, tarball, bearer) {
  const dir = join(work, app.name);
  const failed = (step, error) =>
    app.nodes.map((nodeName) => ({
      name: `${app.name} (${nodeName})`,
      ok: false,
      detail: `FAIL at ${step}: ${error.message}`,
      output: error.output ?? error.stack,
    }));
  let step = 'layout';
  let nest;
  let policies;
  try {
    layOutApp(app, dir, tarball);
    writeFileSync(join(dir, 'one-copy.cjs'), ONE_COPY);
    policies = layOutPolicies(dir);
    step = 'npm install';
    const install = await npmInstall(dir);
    // Our own engines must hold on the Node that installs (the machine's): npm names the package.
    const badEngine = /EBADENGINE[^}]*package: 'mcp-warden@/.exec(install.stderr);
    if (badEngine) throw new CheckError('npm install: EBADENGINE for mcp-warden', install.stderr);
    step = 'dependency tree';
    nest = checkSingleCopies(dir, app);
    step = 'tsc';
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
      cwd: dir,
    });
    step = 'mcp-warden bundle';
    const bundled = await run(
      join(dir, 'node_modules/.bin/mcp-warden'),
      ['bundle', '--entry', 'dist/main.js', '--out', 'dist/bundle'],
      { cwd: dir },
    );
    checkNoWarnings(step, bundled.stderr);
    step = 'mcp-warden bundle --transport stdio';
    const stdio = await run(
      join(dir, 'node_modules/.bin/mcp-warden'),
      ['bundle', '--entry', 'dist/main-stdio.js', '--out', 'dist/bundle', '--transport', 'stdio'],
      { cwd: dir },
    );
    checkNoWarnings(step, stdio.stderr);
  } catch (error) {
    return failed(step, error);
  }
  const reports = [];
  for (const [index, nodeName] of app.nodes.entries()) {
    // The bundle is driven on the app's first Node (a bundle is the same file on every Node).
    const report = await checkOnNode(app, dir, nodeName, bearer, policies, index === 0);
    report.detail = `Nest ${nest}, ${app.kind}: ${report.detail}`;
    reports.push(report);
  }
  return reports;
}

/** The last lines of a step's output, indented under the failing line. */
function tail(output = '', lines = 30) {
  return output
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((line) => `    ${line}`)
    .join('\n');
}

async function main() {
  const args = process.argv.slice(2);
  const option = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const out = option('--out') && resolve(option('--out'));
  const only = option('--only');
  const keep = args.includes('--keep');
  const apps = MATRIX.filter((app) => !only || app.name === only);
  const work = mkdtempSync(join(tmpdir(), 'mcp-warden-pack-check-'));
  const results = { tarball: { ok: false }, apps: [] };
  let packed;
  try {
    try {
      packed = await packTarball(work);
      const size = Math.round(statSync(packed.tarball).size / 1024);
      checkTarball(packed);
      results.tarball.ok = true;
      say(`pack-check tarball: ok, ${packed.files.length} files (${packed.name}, ${size} kB)`);
    } catch (error) {
      say(`pack-check tarball: FAIL: ${error.message}`);
      if (error.output) say(tail(error.output));
    }
    if (packed) {
      const bearer = await bearerSetup();
      const tarball = packed.tarball;
      results.apps = (
        await Promise.all(apps.map((app) => checkApp(app, work, tarball, bearer)))
      ).flat();
    } else {
      results.apps = apps.map((app) => ({ name: app.name, ok: false, detail: 'FAIL: no tarball' }));
    }
    for (const report of results.apps) {
      const took = report.seconds === undefined ? '' : ` (${report.seconds} s)`;
      say(`pack-check ${report.name}: ${report.ok ? 'ok, ' : ''}${report.detail}${took}`);
      if (!report.ok && report.output) say(tail(report.output));
      delete report.output;
    }
  } finally {
    if (keep) say(`pack-check: scratch apps kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  }
  const ok = results.tarball.ok && results.apps.every((report) => report.ok);
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  say(`pack-check: FAIL: ${error.stack ?? error}`);
  process.exitCode = 1;
});
