#!/usr/bin/env node
/*
 * The packaging check: what a team installing the published package gets.
 *
 *   node scripts/pack-check/run.mjs [--out <results.json>] [--keep]
 *
 * 1. `npm pack` builds the tarball (prepack: a clean build) into a temp dir and checks its
 *    file list: library files only (no src/, test/, bench/, scripts/, .ci/, dist/app/, no
 *    source maps or spec files), with every `exports` target present;
 * 2. installs the tarball into two scratch apps made in that temp dir, outside the repo:
 *    - nest12-esm: Nest 12, `"type": "module"`, TypeScript NodeNext;
 *    - nest11-cjs: Nest 11, CommonJS, the tsconfig Nest CLI 11 generates (`module: commonjs`);
 *    each gets the shared sources in app-src/ (a provider with an `@McpTool()` method and a
 *    DTO, `McpModule.forRoot({ transport: 'http', ... })`, a `main.ts` and a node:test file);
 * 3. per app: `npm install`, no nested copy of a peer under mcp-warden/node_modules, `tsc`,
 *    boot with `NestFactory.create` on 127.0.0.1:0 and call the tool over Streamable HTTP
 *    (initialize, notifications/initialized, tools/call), then the `Test.createTestingModule`
 *    tests: one through `McpWarden.handleMessage`, one through `McpTestClient` from
 *    `mcp-warden/testing` (so the subpath is type-checked by the app's `tsc` and loaded the way
 *    the app resolves it). A warning printed at run time fails.
 *
 * Prints one line for the tarball and one per app, and exits non-zero on any failure. With
 * --out, writes `{ tarball: { ok }, apps: [{ name, ok }] }` for CI's count. The temp dir is
 * removed unless --keep. NODE_OPTIONS and npm's npm_* variables are not passed to the apps.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const APPS = [
  { name: 'nest12-esm', nestMajor: 12, kind: 'ESM, TypeScript NodeNext' },
  { name: 'nest11-cjs', nestMajor: 11, kind: 'CommonJS, Nest CLI 11 tsconfig' },
];
/** Packages the library takes from the app (peers): a nested copy would be a second Nest. */
const PEERS = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'class-transformer',
  'class-validator',
  'reflect-metadata',
  'rxjs',
];
const FORBIDDEN = [
  /^(src|test|bench|scripts|\.ci|dist\/app|dist-fixtures)\//,
  /\.map$/,
  /\.spec\./,
];
const REQUIRED = ['package.json', 'LICENSE', 'README.md'];
const PROTOCOL_VERSION = '2025-11-25';
const INSTALL_TIMEOUT_MS = 240_000;
const STEP_TIMEOUT_MS = 60_000;
const BOOT_TIMEOUT_MS = 30_000;

class CheckError extends Error {
  constructor(message, output = '') {
    super(message);
    this.output = output;
  }
}

const children = new Set();

/** One line of the report, on stdout. */
function say(line) {
  process.stdout.write(`${line}\n`);
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(1);
  });
}

/** The environment the apps and their installs run in: without npm's or Node's options. */
function childEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
  delete env.NODE_OPTIONS;
  return env;
}

/** Runs a command to its end; rejects with its output on a non-zero exit or a timeout. */
function run(command, args, { cwd, timeoutMs = STEP_TIMEOUT_MS }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(new CheckError(`${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const output = `${stdout}${stderr}`;
      if (code === 0) resolvePromise({ stdout, stderr });
      else if (signal)
        reject(new CheckError(`${command} timed out or was killed (${signal})`, output));
      else reject(new CheckError(`${command} ${args.join(' ')} exited ${code}`, output));
    });
  });
}

/** `npm pack` into `dir`; returns the tarball's path and its file list (without `package/`). */
async function packTarball(dir) {
  await run('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: ROOT,
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

/** Every `exports`/`main`/`types` target of the packed package.json, as tarball paths. */
function declaredTargets(pkg) {
  const targets = new Map();
  const add = (key, target) => targets.set(target.replace(/^\.\//, ''), key);
  add('main', pkg.main);
  add('types', pkg.types);
  for (const [subpath, entry] of Object.entries(pkg.exports ?? {})) {
    if (typeof entry === 'string') add(subpath, entry);
    else for (const target of Object.values(entry)) add(subpath, target);
  }
  return targets;
}

/** Checks the tarball's contents; returns what the apps need to know about it. */
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

/** Lays out a scratch app: its package.json (with the tarball), tsconfig and the sources. */
function createApp(app, dir, tarball) {
  const template = join(HERE, app.name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(template, 'package.json'), 'utf8'));
  pkg.dependencies['mcp-warden'] = `file:${tarball}`;
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  copyFileSync(join(template, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  for (const file of readdirSync(join(HERE, 'app-src'))) {
    copyFileSync(join(HERE, 'app-src', file), join(dir, 'src', file));
  }
}

/** Fails when a peer was installed a second time under the library. */
function checkSingleCopies(dir, app) {
  const nested = PEERS.filter((name) =>
    existsSync(join(dir, 'node_modules/mcp-warden/node_modules', name)),
  );
  if (nested.length > 0)
    throw new CheckError(`nested copies under mcp-warden: ${nested.join(', ')}`);
  const core = JSON.parse(
    readFileSync(join(dir, 'node_modules/@nestjs/core/package.json'), 'utf8'),
  );
  if (Number(core.version.split('.')[0]) !== app.nestMajor) {
    throw new CheckError(`@nestjs/core ${core.version} installed, expected ${app.nestMajor}.x`);
  }
  return core.version;
}

/** A JSON-RPC POST to the endpoint; reads a JSON or an SSE answer. */
async function post(url, message, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let body = null;
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const events = text.split(/\r?\n\r?\n/).map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n'),
    );
    body = events
      .filter(Boolean)
      .map((data) => JSON.parse(data))
      .find((reply) => reply.id === message.id);
  } else if (text) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body, text };
}

/** Starts the app's dist/main.js, waits for `listening <port>`; returns the child and port. */
function boot(dir) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: dir,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const state = { child, stdout: '', stderr: '' };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new CheckError('the app did not print `listening <port>` in time', state.stderr));
    }, BOOT_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      state.stdout += chunk;
      const port = /^listening (\d+)$/m.exec(state.stdout)?.[1];
      if (port) {
        clearTimeout(timer);
        resolvePromise({ ...state, port: Number(port), state });
      }
    });
    child.stderr.on('data', (chunk) => (state.stderr += chunk));
    child.on('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new CheckError(`the app exited (${code}) before listening`, state.stderr));
    });
  });
}

/** Stops a booted app with SIGTERM (SIGKILL after 5 s); resolves with its exit code. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolvePromise(code);
    });
    child.kill('SIGTERM');
  });
}

/** Boots the app and calls its tool over Streamable HTTP; returns what it wrote to stderr. */
async function serveAndCall(dir) {
  const booted = await boot(dir);
  const url = `http://127.0.0.1:${booted.port}/mcp`;
  try {
    const init = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'pack-check', version: '1.0.0' },
      },
    });
    const session = init.headers.get('mcp-session-id');
    if (
      init.status !== 200 ||
      !session ||
      init.body?.result?.protocolVersion !== PROTOCOL_VERSION
    ) {
      throw new CheckError(`initialize: HTTP ${init.status}, session ${session}: ${init.text}`);
    }
    const headers = { 'mcp-session-id': session, 'MCP-Protocol-Version': PROTOCOL_VERSION };
    const initialized = await post(
      url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      headers,
    );
    if (initialized.status !== 202) {
      throw new CheckError(`notifications/initialized: HTTP ${initialized.status}`);
    }
    const call = await post(
      url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 2, b: 3 } },
      },
      headers,
    );
    const result = call.body?.result;
    if (call.status !== 200 || result?.isError || result?.structuredContent?.sum !== 5) {
      throw new CheckError(`tools/call: HTTP ${call.status}: ${call.text}`);
    }
  } catch (error) {
    if (error instanceof CheckError) error.output ||= booted.state.stderr;
    throw error;
  } finally {
    children.delete(booted.child);
    await stop(booted.child);
  }
  return booted.state.stderr;
}

/** Fails on a warning Node printed while the app ran (e.g. about loading ES modules). */
function checkNoWarnings(step, stderr) {
  const warning = stderr.split('\n').find((line) => /Warning\b/.test(line));
  if (warning) throw new CheckError(`${step} printed a warning: ${warning.trim()}`, stderr);
}

/** One scratch app from layout to the testing-module test; resolves with its report. */
async function checkApp(app, work, packed) {
  const started = Date.now();
  const dir = join(work, app.name);
  const report = { name: app.name, ok: false, step: 'layout', detail: '' };
  try {
    createApp(app, dir, packed.tarball);
    report.step = 'npm install';
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
      {
        cwd: dir,
        timeoutMs: INSTALL_TIMEOUT_MS,
      },
    );
    report.step = 'dependency tree';
    const nest = checkSingleCopies(dir, app);
    report.step = 'tsc';
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], { cwd: dir });
    report.step = 'Streamable HTTP';
    checkNoWarnings(report.step, await serveAndCall(dir));
    report.step = 'testing module';
    const test = await run(process.execPath, ['--test', 'dist/app.test.js'], { cwd: dir });
    checkNoWarnings(report.step, test.stderr);
    report.ok = true;
    report.detail =
      `Nest ${nest}, ${app.kind}, Node ${process.version}: tools/call over Streamable HTTP ok, ` +
      'Test.createTestingModule + McpWarden.handleMessage ok, ' +
      'McpTestClient (mcp-warden/testing) listTools + callTool ok';
  } catch (error) {
    report.detail = `FAIL at ${report.step}: ${error.message}`;
    report.output = error.output ?? error.stack;
  }
  report.seconds = Math.round((Date.now() - started) / 1000);
  return report;
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
  const outIndex = args.indexOf('--out');
  const out = outIndex >= 0 ? resolve(args[outIndex + 1]) : undefined;
  const keep = args.includes('--keep');
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
      results.apps = await Promise.all(APPS.map((app) => checkApp(app, work, packed)));
    } else {
      results.apps = APPS.map((app) => ({ name: app.name, ok: false, detail: 'FAIL: no tarball' }));
    }
    for (const report of results.apps) {
      const took = report.seconds === undefined ? '' : ` (${report.seconds} s)`;
      say(`pack-check ${report.name}: ${report.ok ? 'ok, ' : ''}${report.detail}${took}`);
      if (!report.ok && report.output) say(tail(report.output));
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
