import type { Plugin } from 'esbuild';

/*
 * Nest's core imports `STATUS_CODES` from node:http and `Server` from node:tls at the top of
 * three modules, for its HTTP applications. A stdio server never serves HTTP, yet the import
 * alone costs it about 9 MB on Node 22 and 11 MB on Node 24 (Node 20: about 1 MB), which is most
 * of what it has beyond the SDK's server. In a stdio bundle, those imports (Nest's, no one
 * else's) get stand-ins that load the real module on first use: `STATUS_CODES[code]` reads
 * through, and `instanceof Server` asks the real class.
 */
const NEST_CORE = /[\\/]@nestjs[\\/]core[\\/]/;
const NAMESPACE = 'mcp-warden-lazy-builtin';

const STAND_INS: Record<'http' | 'tls', string> = {
  http: [
    "import { createRequire } from 'node:module';",
    'let http;',
    "const load = () => (http ??= createRequire(import.meta.url)('node:http'));",
    'export const STATUS_CODES = new Proxy({}, { get: (_, code) => load().STATUS_CODES[code] });',
  ].join('\n'),
  tls: [
    "import { createRequire } from 'node:module';",
    'let tls;',
    "const load = () => (tls ??= createRequire(import.meta.url)('node:tls'));",
    'export class Server {',
    '  static [Symbol.hasInstance](value) {',
    '    return value instanceof load().Server;',
    '  }',
    '}',
  ].join('\n'),
};

/** The esbuild plugin (stdio bundles only). */
export function lazyBuiltinsPlugin(): Plugin {
  return {
    name: 'mcp-warden-lazy-builtins',
    setup(build) {
      build.onResolve({ filter: /^(node:)?(http|tls)$/ }, (args) =>
        NEST_CORE.test(args.importer)
          ? { path: args.path.replace(/^node:/, ''), namespace: NAMESPACE }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: STAND_INS[args.path as 'http' | 'tls'],
        loader: 'js',
      }));
    },
  };
}
