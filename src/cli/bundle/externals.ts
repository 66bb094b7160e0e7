/**
 * What a bundle leaves to `node_modules`, resolved at run time as usual:
 * - native addons, which cannot be inlined (better-sqlite3, and pg's optional pg-native);
 * - packages loaded only by some deployments, so a bundle that inlined them would parse them on
 *   every start: the Redis client (cluster mode only), the Fastify adapter (an app picks one
 *   adapter), and the transports Nest loads only for microservices and websockets;
 * - the DTO machinery (class-validator, class-transformer, class-validator-jsonschema), which the
 *   framework loads with `require` the first time a DTO tool is registered: it must be the same
 *   instance an app's own DTOs were decorated with (dto-packages.ts);
 * - Cedar (`@cedar-policy/cedar-wasm`), loaded only with a `policy`: it reads its WebAssembly
 *   file beside its own module, which a bundle would move.
 * Everything else (Nest, rxjs, the MCP packages, zod, Ajv, jose, express) is inlined.
 */
export const BUNDLE_EXTERNALS: readonly string[] = [
  'better-sqlite3',
  'pg-native',
  'ioredis',
  'fastify',
  '@fastify/*',
  '@nestjs/platform-fastify',
  '@nestjs/microservices',
  '@nestjs/microservices/*',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  'class-validator',
  'class-transformer',
  'class-transformer/*',
  'class-validator-jsonschema',
  '@cedar-policy/cedar-wasm',
  '@cedar-policy/cedar-wasm/*',
];

/**
 * The HTTP stack, left out of a stdio server's bundle: Nest imports the Express adapter only when
 * an HTTP app is created, so a stdio process never loads it, and its bundle need not carry it.
 */
export const HTTP_STACK: readonly string[] = [
  '@nestjs/platform-express',
  'express',
  'body-parser',
  'multer',
];

/**
 * Packages Nest's core requires lazily, only when an app uses them: the Express adapter, which an
 * app on Fastify does not install. When the app has one not installed, the bundle leaves it
 * external (bundle-server.ts), so it fails where the app itself would, not at bundling.
 */
export const LAZY_OPTIONAL: readonly string[] = ['@nestjs/platform-express'];
