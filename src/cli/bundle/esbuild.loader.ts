/** esbuild's API, as the `bundle` command uses it. */
export type Esbuild = typeof import('esbuild');

/** Why `mcp-warden bundle` cannot run: esbuild, an optional peer dependency, is missing. */
export const ESBUILD_MISSING =
  'mcp-warden bundle needs esbuild, an optional peer dependency of mcp-warden: ' +
  'npm install --save-dev esbuild';

/**
 * Loads esbuild from the app's own dependencies. It is an optional peer: only the `bundle`
 * command needs it, and the library never loads it, so an app that does not bundle does not
 * install it.
 */
export async function loadEsbuild(
  load: () => Promise<unknown> = () => import('esbuild'),
): Promise<Esbuild> {
  try {
    const module = (await load()) as Esbuild & { default?: Esbuild };
    return module.default ?? module;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(ESBUILD_MISSING, { cause: error });
    }
    throw error;
  }
}
