import type { Plugin } from 'esbuild';
import { rewriteOnLoad } from './source-rewrite.js';

/*
 * zod's `z` namespace carries every locale zod ships (`z.locales.de()`, about 50 of them), and
 * the MCP packages import zod as that namespace, so a bundler must keep them all: 265 kB of the
 * 1.7 MB a stdio server's bundle was, parsed at every start for messages in English. In a bundle,
 * zod's locale index keeps English and makes every other locale a stand-in that loads the real
 * one from the app's node_modules the first time it is called: `z.config(z.locales.de())` still
 * works where zod is installed beside the bundle, as it is beside any app that depends on it.
 */
const LOCALE_INDEX = /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;
const EXPORT = /^export \{ default as (\w+) \} from "\.\/([\w-]+)\.js";$/;

/** The index's stand-in, or undefined when zod words its index differently. */
export function lazyLocaleIndex(source: string): string | undefined {
  const lines = source.split('\n').filter((line) => line.trim() !== '');
  const locales = lines.map((line) => EXPORT.exec(line.trim()));
  if (locales.length === 0 || locales.some((found) => found === null)) return undefined;
  const exports = locales.map((found) => {
    const [, name, file] = found!;
    return name === 'en'
      ? `export { default as en } from "./en.js";`
      : `export const ${name} = (...args) => load(${JSON.stringify(file)})(...args);`;
  });
  return [
    "import { createRequire } from 'node:module';",
    // zod's CommonJS locale is the function itself (`module.exports = exports.default`).
    'const load = (file) => {',
    '  const locale = createRequire(import.meta.url)(`zod/v4/locales/${file}.cjs`);',
    "  return typeof locale === 'function' ? locale : locale.default;",
    '};',
    ...exports,
  ].join('\n');
}

/**
 * The esbuild plugin. A zod release whose index reads differently is bundled as it is, with a
 * warning: the bundle is then as zod ships it, only slower to start.
 */
export function lazyZodLocalesPlugin(): Plugin {
  return {
    name: 'mcp-warden-lazy-zod-locales',
    setup(build) {
      rewriteOnLoad(build, LOCALE_INDEX, lazyLocaleIndex, "zod's locale index not recognised");
    },
  };
}
