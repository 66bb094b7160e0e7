import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { McpPolicySource, McpPolicySources } from '../policy-options.interface.js';

/** One text of Cedar: `name` names it in messages and in default policy ids. */
export interface PolicyText {
  readonly name: string;
  readonly text: string;
}

/** The texts of a source (or of several, in order), read without blocking (boot, a reload, the CLI). */
export async function readSource(
  source: McpPolicySources,
  inlineName = 'inline',
): Promise<PolicyText[]> {
  if (isList(source)) {
    const texts = await Promise.all(source.map((one) => readSource(one, inlineName)));
    return texts.flat();
  }
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

/** The paths a watcher follows: every file and folder among the sources. */
export function watchedPaths(source: McpPolicySources | undefined): string[] {
  if (!source) return [];
  if (isList(source)) return source.flatMap(watchedPaths);
  if ('text' in source) return [];
  return ['file' in source ? source.file : source.dir];
}

function isList(source: McpPolicySources): source is readonly McpPolicySource[] {
  return Array.isArray(source);
}

function cedarFiles(names: string[]): string[] {
  return names.filter((name) => name.endsWith('.cedar')).sort();
}
