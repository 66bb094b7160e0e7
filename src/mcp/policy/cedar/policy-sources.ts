import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { McpPolicySource } from '../policy-options.interface.js';

/** One text of Cedar: `name` names it in messages and in default policy ids. */
export interface PolicyText {
  readonly name: string;
  readonly text: string;
}

/** The texts of a source, read without blocking (boot, a reload, the CLI). */
export async function readSource(
  source: McpPolicySource,
  inlineName = 'inline',
): Promise<PolicyText[]> {
  if ('text' in source) return [{ name: inlineName, text: source.text }];
  if ('file' in source) {
    return [{ name: basename(source.file), text: await readFile(source.file, 'utf8') }];
  }
  const files = cedarFiles(await readdir(source.dir));
  return Promise.all(
    files.map(async (file) => ({
      name: file,
      text: await readFile(join(source.dir, file), 'utf8'),
    })),
  );
}

/** The path a watcher follows, when the source has one. */
export function watchedPath(source: McpPolicySource | undefined): string | undefined {
  if (!source || 'text' in source) return undefined;
  return 'file' in source ? source.file : source.dir;
}

function cedarFiles(names: string[]): string[] {
  return names.filter((name) => name.endsWith('.cedar')).sort();
}
