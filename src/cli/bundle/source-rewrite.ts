import type { PluginBuild } from 'esbuild';
import { readFile } from 'node:fs/promises';

/**
 * Rewrites the files `filter` matches as they are loaded. A file `rewrite` does not recognise
 * (it returns undefined: a release of the package worded it differently) is bundled as it is,
 * with a warning naming it and `unrecognised`: the bundle then works as the package ships it.
 */
export function rewriteOnLoad(
  build: PluginBuild,
  filter: RegExp,
  rewrite: (source: string) => string | undefined,
  unrecognised: string,
): void {
  build.onLoad({ filter }, async (args) => {
    const source = await readFile(args.path, 'utf8');
    const contents = rewrite(source);
    if (contents === undefined) {
      return {
        contents: source,
        loader: 'js',
        warnings: [{ text: `${args.path}: ${unrecognised}` }],
      };
    }
    return { contents, loader: 'js' };
  });
}
