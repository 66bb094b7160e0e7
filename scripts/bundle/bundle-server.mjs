// @ts-check
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { build } from 'esbuild';
import { deferredIntlPlugin } from './deferred-intl.plugin.mjs';
import { writeDtoPackages } from './dto-packages.mjs';
import { BUNDLE_EXTERNALS, HTTP_STACK } from './externals.mjs';
import { lazyBuiltinsPlugin } from './lazy-builtins.plugin.mjs';

/*
 * An ES module bundle has no `require`; CommonJS packages inlined in it (most of Nest's
 * dependencies) call it for Node's built-ins and for the externals.
 */
const REQUIRE_SHIM =
  "import { createRequire as __wardenCreateRequire } from 'node:module';\n" +
  'const require = __wardenCreateRequire(import.meta.url);';

/**
 * The launcher beside each bundle. It turns on Node's compile cache (Node 22.1+) before the
 * bundle is compiled, so every start after the first reuses the bytecode of the last one: a
 * desktop client spawns a stdio server per session. The cache lives in Node's default place
 * (the OS temp directory); NODE_COMPILE_CACHE still overrides it, NODE_DISABLE_COMPILE_CACHE
 * turns it off. It is written once the bundle has been evaluated (Node 22.10+), not only at a
 * clean exit: a server that is killed has filled it too.
 * @param {string} bundleFile
 */
const launcher = (bundleFile) =>
  [
    '#!/usr/bin/env node',
    "import module from 'node:module';",
    '',
    'module.enableCompileCache?.();',
    `await import('./${bundleFile}');`,
    'module.flushCompileCache?.();',
    '',
  ].join('\n');

/**
 * Bundles one server entry (a built `.js` file) into `outDir/<name>.bundle.mjs`, with its launcher
 * at `outDir/<name>.mjs`: one file to read and compile at start instead of some 1,500 modules,
 * which is most of a Nest app's cold start. Decorator metadata survives: the input is tsc's
 * output, which has it already.
 * `transport: 'stdio'` leaves the HTTP stack out (`HTTP_STACK`) and Nest's HTTP-only built-ins
 * unloaded until used (`lazyBuiltinsPlugin`).
 * @param {{ entry: string, outDir: string, name?: string, minify?: boolean, transport?: 'http' | 'stdio' }} options
 * @returns {Promise<{ launcher: string, bundle: string, bytes: number }>}
 */
export async function bundleServer({ entry, outDir, name, minify = true, transport = 'http' }) {
  const stdio = transport === 'stdio';
  const base = name ?? basename(entry).replace(/\.[cm]?js$/, '');
  const bundleFile = `${base}.bundle.mjs`;
  const bundle = join(outDir, bundleFile);
  await mkdir(outDir, { recursive: true });
  const result = await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify,
    // Nest names providers by their class names; a minifier must not rename them.
    keepNames: true,
    external: [...BUNDLE_EXTERNALS, ...(stdio ? HTTP_STACK : [])],
    banner: { js: REQUIRE_SHIM },
    plugins: [deferredIntlPlugin(), ...(stdio ? [lazyBuiltinsPlugin()] : [])],
    logLevel: 'warning',
    metafile: true,
    // Source maps would double what a start reads; an error's stack still names the function.
    sourcemap: false,
  });
  const out = result.metafile.outputs[relative(process.cwd(), bundle)];
  await writeDtoPackages(outDir);
  const launcherFile = join(outDir, `${base}.mjs`);
  await writeFile(launcherFile, launcher(bundleFile), { mode: 0o755 });
  return { launcher: launcherFile, bundle, bytes: out?.bytes ?? 0 };
}
