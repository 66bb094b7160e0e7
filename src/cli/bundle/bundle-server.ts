import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appRequire } from './app-require.js';
import { deferredIntlPlugin } from './deferred-intl.plugin.js';
import { writeDtoPackages } from './dto-packages.js';
import { loadEsbuild, type Esbuild } from './esbuild.loader.js';
import { BUNDLE_EXTERNALS, HTTP_STACK, LAZY_OPTIONAL } from './externals.js';
import { lazyBuiltinsPlugin } from './lazy-builtins.plugin.js';
import { lazyZodLocalesPlugin } from './lazy-zod-locales.plugin.js';
import { minifyKeepingNames } from './minify-options.js';

/*
 * An ES module bundle has no `require`, `__filename` or `__dirname`; CommonJS code inlined in it
 * (most of Nest's dependencies, and all of a CommonJS app, the Nest CLI 11 default) uses them.
 * `require` is declared here; the other two are substituted where they are free variables
 * (`define` below), so a module that declares its own keeps it.
 */
const REQUIRE_SHIM = [
  "import { createRequire as __wardenCreateRequire } from 'node:module';",
  "import { fileURLToPath as __wardenFileURLToPath } from 'node:url';",
  "import { dirname as __wardenPathDirname } from 'node:path';",
  'const require = __wardenCreateRequire(import.meta.url);',
  'const __wardenFilename = __wardenFileURLToPath(import.meta.url);',
  'const __wardenDirname = __wardenPathDirname(__wardenFilename);',
].join('\n');

/**
 * The launcher beside each bundle. It turns on Node's compile cache (Node 22.1+) before the
 * bundle is compiled, so every start after the first reuses the bytecode of the last one: a
 * desktop client spawns a stdio server per session. The cache lives in Node's default place
 * (the OS temp directory); NODE_COMPILE_CACHE still overrides it, NODE_DISABLE_COMPILE_CACHE
 * turns it off. It is written once the bundle has been evaluated (Node 22.10+), not only at a
 * clean exit: a server that is killed has filled it too.
 */
const launcher = (bundleFile: string, preloadFile?: string) =>
  [
    '#!/usr/bin/env node',
    "import module from 'node:module';",
    '',
    'module.enableCompileCache?.();',
    ...(preloadFile ? [`(await import('./${preloadFile}')).precompileCedar();`] : []),
    `await import('./${bundleFile}');`,
    'module.flushCompileCache?.();',
    '',
  ].join('\n');

/*
 * `preloadCedar`: a Cedar app's policy layer needs the engine at the end of Nest's boot, and
 * `McpPolicies.cedar()` starts compiling it only once the bundle's code has been read and mostly
 * run. The launcher of such an app starts it first, from a small file of its own beside the
 * bundle, so the engine is compiled and warmed (src/mcp/policy/cedar/cedar.precompiler.ts) on
 * other threads while the bundle loads. The two copies share one head start per process.
 */
const PRECOMPILER = fileURLToPath(
  new URL('../../mcp/policy/cedar/cedar.precompiler.js', import.meta.url),
);

/** What `bundleServer()` bundles, and how. */
export interface BundleServerOptions {
  /** The server's built entry point (a `.js` file tsc wrote). */
  readonly entry: string;
  /** The folder the bundle, its launcher and the DTO stand-ins go to. */
  readonly outDir: string;
  /** The files' base name; default: the entry's. */
  readonly name?: string;
  readonly minify?: boolean;
  /** `'stdio'` leaves the HTTP stack out. */
  readonly transport?: 'http' | 'stdio';
  /**
   * Start compiling Cedar's engine as the process starts, for an app whose `policy` is
   * `McpPolicies.cedar()`. An app without it would compile an engine it never uses.
   */
  readonly preloadCedar?: boolean;
  /** esbuild, when the caller has it already; else it is loaded from the app's dependencies. */
  readonly esbuild?: Esbuild;
}

/** What `bundleServer()` wrote. */
export interface BundledServer {
  /** The file to start: `node <launcher>`. */
  readonly launcher: string;
  readonly bundle: string;
  readonly bytes: number;
}

/**
 * Bundles one server entry into `outDir/<name>.bundle.mjs`, with its launcher at
 * `outDir/<name>.mjs`: one file to read and compile at start instead of some 1,500 modules,
 * which is most of a Nest app's cold start (docs/stdio.md, "Cold start"). Decorator metadata
 * survives: the input is tsc's output, which has it already. A stdio bundle leaves the HTTP
 * stack out (`HTTP_STACK`) and Nest's HTTP-only built-ins unloaded until used.
 */
export async function bundleServer(options: BundleServerOptions): Promise<BundledServer> {
  const { entry, outDir, minify = true, transport = 'http' } = options;
  const esbuild = options.esbuild ?? (await loadEsbuild());
  const stdio = transport === 'stdio';
  const base = options.name ?? basename(entry).replace(/\.[cm]?js$/, '');
  const bundleFile = `${base}.bundle.mjs`;
  const bundle = join(outDir, bundleFile);
  await mkdir(outDir, { recursive: true });
  const result = await esbuild.build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    ...minifyKeepingNames(minify),
    external: [...BUNDLE_EXTERNALS, ...(stdio ? HTTP_STACK : []), ...notInstalled(LAZY_OPTIONAL)],
    banner: { js: REQUIRE_SHIM },
    define: { __filename: '__wardenFilename', __dirname: '__wardenDirname' },
    plugins: [
      deferredIntlPlugin(),
      lazyZodLocalesPlugin(),
      ...(stdio ? [lazyBuiltinsPlugin()] : []),
    ],
    logLevel: 'warning',
    metafile: true,
    // Source maps would double what a start reads; an error's stack still names the function.
    sourcemap: false,
  });
  const out = result.metafile?.outputs[relative(process.cwd(), bundle)];
  await writeDtoPackages(esbuild, outDir);
  const preloadFile = options.preloadCedar ? `${base}.cedar.mjs` : undefined;
  if (preloadFile) {
    await esbuild.build({
      entryPoints: [PRECOMPILER],
      outfile: join(outDir, preloadFile),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      minify,
      external: ['@cedar-policy/cedar-wasm', '@cedar-policy/cedar-wasm/*'],
      // It resolves Cedar with a `require` of its own, from beside the bundle.
      banner: { js: REQUIRE_SHIM },
      logLevel: 'warning',
    });
  }
  const launcherFile = join(outDir, `${base}.mjs`);
  await writeFile(launcherFile, launcher(bundleFile, preloadFile), { mode: 0o755 });
  return { launcher: launcherFile, bundle, bytes: out?.bytes ?? 0 };
}

/** Those of `names` the app in the current directory does not have installed. */
function notInstalled(names: readonly string[]): string[] {
  const require = appRequire();
  return names.filter((name) => {
    try {
      require.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}
