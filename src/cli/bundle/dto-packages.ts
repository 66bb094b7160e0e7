import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { appRequire } from './app-require.js';
import type { Esbuild } from './esbuild.loader.js';
import { minifyKeepingNames } from './minify-options.js';

/*
 * The DTO machinery (class-validator with validator and libphonenumber-js, class-transformer,
 * class-validator-jsonschema) is some 360 modules, about 150 ms to load from node_modules. It
 * cannot simply be inlined in a bundle: the framework requires it at run time (the first time a
 * DTO tool is registered), and the app's decorators and the framework must share one instance
 * (class-transformer keeps its @Type() metadata in a module singleton). So beside the bundle,
 * these packages are written as one prebuilt CommonJS file, and a stand-in package for each that
 * re-exports its part of it. A bare `class-validator` resolves from the bundle's folder first, so
 * the bundle's imports and the framework's require both reach the same file.
 */
const PARTS: Record<string, string> = {
  'class-validator': 'class-validator',
  'class-transformer': 'class-transformer',
  'class-transformer/cjs/storage.js': 'class-transformer/cjs/storage.js',
  'class-validator-jsonschema': 'class-validator-jsonschema',
};

/** Where each stand-in goes, under the bundle's node_modules. */
const FILES: Record<string, string> = {
  'class-validator': 'class-validator/index.js',
  'class-transformer': 'class-transformer/index.js',
  'class-transformer/cjs/storage.js': 'class-transformer/cjs/storage.js',
  'class-validator-jsonschema': 'class-validator-jsonschema/index.js',
};

const SHARED = '.mcp-warden-dto/dto-libraries.cjs';

/** What each folder was given in this process: entries bundled side by side share one write. */
const written = new Map<string, Promise<boolean>>();

/**
 * Writes the shared file and the stand-ins into `outDir/node_modules`, once per folder, from
 * the packages the app in the current directory has. Resolves false (and writes nothing) when
 * it has no class-validator: it then has no DTO tools either.
 */
export function writeDtoPackages(esbuild: Esbuild, outDir: string): Promise<boolean> {
  const key = resolve(outDir);
  let writing = written.get(key);
  if (!writing) {
    writing = write(esbuild, outDir);
    written.set(key, writing);
  }
  return writing;
}

async function write(esbuild: Esbuild, outDir: string): Promise<boolean> {
  const require = appRequire();
  try {
    require.resolve('class-validator');
  } catch {
    return false;
  }
  const modules = join(outDir, 'node_modules');
  const entry = Object.entries(PARTS)
    .map(([key, specifier]) => `  ${JSON.stringify(key)}: require(${JSON.stringify(specifier)}),`)
    .join('\n');
  await esbuild.build({
    stdin: { contents: `module.exports = {\n${entry}\n};\n`, resolveDir: process.cwd() },
    outfile: join(modules, SHARED),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    ...minifyKeepingNames(true),
    logLevel: 'warning',
  });
  for (const [specifier, file] of Object.entries(FILES)) {
    const names = Object.keys(require(specifier) as object).filter((name) =>
      /^[A-Za-z_$][\w$]*$/.test(name),
    );
    const depth = file.split('/').length - 1;
    const shared = `${'../'.repeat(depth)}${SHARED}`;
    // The dead `0 && …` line is how Node's CommonJS lexer learns the export names, so an ES
    // module's `import { IsString } from 'class-validator'` finds them (esbuild writes the same).
    const source =
      `module.exports = require(${JSON.stringify(shared)})[${JSON.stringify(specifier)}];\n` +
      `0 && (module.exports = { ${names.join(', ')} });\n`;
    const target = join(modules, file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, source);
  }
  return true;
}
