// @ts-check
/* Lays out one scratch app of the matrix and checks what npm installed into it. */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adapterDependencies } from './matrix.mjs';
import { CheckError } from './processes.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Packages the library takes from the app (peers): a nested copy would be a second Nest. */
const PEERS = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  '@nestjs/testing',
  'class-transformer',
  'class-validator',
  'reflect-metadata',
  'rxjs',
];

/**
 * The app's files: its CLI template (apps/<template>/), its adapter's dependencies, the
 * tarball, and the shared sources of app-src/ with the adapter's `http-app.ts`. A CommonJS
 * app's relative imports carry no `.js`, as its CLI writes them (Jest resolves them as such).
 * @param {import('./matrix.mjs').MatrixApp} app
 */
export function layOutApp(app, dir, tarball) {
  const template = join(HERE, 'apps', app.template);
  mkdirSync(join(dir, 'src'), { recursive: true });
  for (const file of readdirSync(template)) {
    if (file !== 'package.json') copyFileSync(join(template, file), join(dir, file));
  }
  const pkg = JSON.parse(readFileSync(join(template, 'package.json'), 'utf8'));
  const adapter = adapterDependencies(app);
  pkg.dependencies = {
    ...pkg.dependencies,
    ...adapter.dependencies,
    'mcp-warden': `file:${tarball}`,
  };
  pkg.devDependencies = { ...pkg.devDependencies, ...adapter.devDependencies };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const sources = join(HERE, 'app-src');
  const copies = readdirSync(sources)
    .filter((file) => statSync(join(sources, file)).isFile())
    .map((file) => [join(sources, file), file]);
  copies.push([join(sources, 'adapters', `http-app.${app.adapter}.ts`), 'http-app.ts']);
  for (const [from, name] of copies) {
    const text = readFileSync(from, 'utf8');
    writeFileSync(
      join(dir, 'src', name),
      app.commonjs ? text.replace(/(from '\.\/[^']+)\.js'/g, "$1'") : text,
    );
  }
}

/**
 * Fails when a peer was installed a second time under the library, or Nest is not the app's
 * major; returns the installed @nestjs/core version.
 * @param {import('./matrix.mjs').MatrixApp} app
 */
export function checkSingleCopies(dir, app) {
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
