import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { TemplateLink } from '@cedar-policy/cedar-wasm/nodejs';
import type {
  McpCedarPolicyOptions,
  McpPolicySource,
  McpPolicySources,
} from '../policy-options.interface.js';

/** One text of Cedar: `name` names it in messages and in default policy ids. */
export interface PolicyText {
  readonly name: string;
  readonly text: string;
}

/** The texts of one set: policies, and optionally templates and their links. */
export interface SetTexts {
  readonly policies: readonly PolicyText[];
  readonly templates?: readonly PolicyText[];
  readonly links?: readonly TemplateLink[];
}

/* Boot, reload and the CLI read a set's sources the same way: without blocking. */
export async function readSetTexts(options: McpCedarPolicyOptions): Promise<SetTexts> {
  return {
    policies: await readSource(options.policies, 'policies'),
    templates: options.templates ? await readSource(options.templates, 'templates') : undefined,
    links: options.links?.map((link) => ({
      templateId: link.templateId,
      newId: link.newId,
      values: { ...link.values },
    })),
  };
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
