// @ts-check
/*
 * The package's CommonJS build, for runtimes that cannot `require()` an ES module: Jest's
 * CommonJS runtime (the Nest CLI 11 default) on every Node version, and Node before 20.19.
 * Node itself, from 20.19 and 22.12, loads the ESM build for `require()` too, through the
 * `module-sync` export condition, so a process that both imports and requires the package holds
 * one copy of its classes and tokens (the README, "Install").
 *
 *   node scripts/commonjs/build-commonjs.mjs   (after `tsc -p tsconfig.build.json`)
 *
 * 1. Every library file of dist/ (tsc's ESM output: decorators and their metadata already
 *    lowered) becomes a CommonJS file at the same place under dist/cjs/, one file for one, so
 *    the lazy loads stay lazy and `mcp-warden/testing` shares the main entry's modules. Its
 *    `import()`s become `require()`s (Jest's CommonJS runtime refuses `import()` without
 *    `--experimental-vm-modules`), and `import.meta.url` is the file's own URL.
 * 2. The dependencies published as ES modules only (jose, openid-client, canonicalize) are
 *    bundled once each into dist/cjs/vendor/, and the CommonJS files require those copies.
 * 3. The declarations are copied beside them, so a CommonJS consumer's TypeScript
 *    (`module: nodenext`) reads CommonJS declarations for `require`.
 */
import { build } from 'esbuild';
import {
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'cjs');
/** The library's part of dist/: the service (app/), its bundle and this build are not. */
const LIBRARY = ['index.js', 'mcp', 'testing'];
/** ESM-only dependencies → the file under dist/cjs/vendor/ that replaces them. */
/** What `import.meta.url` reads as in the CommonJS files. */
const IMPORT_META_URL = '__import_meta_url';
const VENDORED = new Map([
  ['jose', 'jose.cjs'],
  ['openid-client', 'openid-client.cjs'],
  ['canonicalize', 'canonicalize.cjs'],
]);
/**
 * Entries published as ES modules only, whose package has a CommonJS entry for the same API:
 * Cedar's `web` entry takes a precompiled module; its `nodejs` entry compiles its own.
 */
const COMMONJS_ENTRIES = new Map([
  ['@cedar-policy/cedar-wasm/web', '@cedar-policy/cedar-wasm/nodejs'],
]);

/**
 * Every file at or below `entry` (relative to dist/) whose name passes `keep`.
 * @param {string} entry
 * @param {(file: string) => boolean} keep
 * @returns {string[]}
 */
function filesUnder(entry, keep) {
  const path = join(DIST, entry);
  if (!statSync(path).isDirectory()) return keep(entry) ? [entry] : [];
  return readdirSync(path).flatMap((name) => filesUnder(join(entry, name), keep));
}

/**
 * The relative specifier from a dist/cjs file to a vendored dependency.
 * @param {string} importer
 * @param {string} file
 */
function vendorSpecifier(importer, file) {
  const specifier = relative(dirname(importer), join(OUT, 'vendor', file))
    .split(sep)
    .join('/');
  return specifier.startsWith('.') ? specifier : `./${specifier}`;
}

/** Keeps every import as it is (one output file per input), except the vendored ones. */
const perFile = {
  name: 'per-file',
  /** @param {import('esbuild').PluginBuild} pluginBuild */
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const vendored = VENDORED.get(args.path);
      const importer = join(OUT, relative(DIST, args.importer));
      if (vendored) return { path: vendorSpecifier(importer, vendored), external: true };
      return { path: COMMONJS_ENTRIES.get(args.path) ?? args.path, external: true };
    });
  },
};

async function buildLibrary() {
  const entries = LIBRARY.flatMap((entry) => filesUnder(entry, (file) => file.endsWith('.js')));
  const result = await build({
    absWorkingDir: DIST,
    entryPoints: entries,
    outdir: OUT,
    outbase: DIST,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // `import()` of a package becomes `require()` (see above).
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': IMPORT_META_URL },
    plugins: [perFile],
    write: false,
    logLevel: 'warning',
  });
  for (const file of result.outputFiles) {
    // `import.meta.url` is the file's own URL, as in ESM, defined in the few files that read it.
    const text = file.text.includes(IMPORT_META_URL)
      ? file.text.replace(
          /^("use strict";\n)?/,
          `$1var ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;\n`,
        )
      : file.text;
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, text);
  }
  return entries.length;
}

async function buildVendored() {
  // openid-client uses jose too: it requires the vendored copy rather than carrying its own.
  const joseExternal = {
    name: 'vendored-jose',
    /** @param {import('esbuild').PluginBuild} pluginBuild */
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^jose$/ }, (args) =>
        args.kind === 'entry-point' ? undefined : { path: './jose.cjs', external: true },
      );
    },
  };
  for (const [name, file] of VENDORED) {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
    await build({
      absWorkingDir: ROOT,
      stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: ROOT },
      outfile: join(OUT, 'vendor', file),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      plugins: name === 'jose' ? [] : [joseExternal],
      banner: { js: `/* ${name}@${pkg.version} (${pkg.license}), bundled as CommonJS. */` },
      legalComments: 'inline',
      logLevel: 'warning',
    });
  }
}

function copyDeclarations() {
  const declarations = LIBRARY.flatMap((entry) =>
    filesUnder(entry.replace(/\.js$/, '.d.ts'), (file) => file.endsWith('.d.ts')),
  );
  for (const file of declarations) {
    mkdirSync(dirname(join(OUT, file)), { recursive: true });
    cpSync(join(DIST, file), join(OUT, file));
  }
  return declarations.length;
}

rmSync(OUT, { recursive: true, force: true });
const files = await buildLibrary();
await buildVendored();
const declarations = copyDeclarations();
// The package is `"type": "module"`: this marker makes dist/cjs/**/*.js CommonJS to Node and TypeScript.
writeFileSync(join(OUT, 'package.json'), '{ "type": "commonjs" }\n');
// On stderr: `npm start` and `npm run start:stdio` build first, and stdout may be a protocol pipe.
process.stderr.write(`commonjs: ${files} files and ${declarations} declarations → dist/cjs\n`);
