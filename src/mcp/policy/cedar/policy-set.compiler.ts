import { createHash } from 'node:crypto';
import type { PolicyJson, SchemaJson, TemplateLink } from '@cedar-policy/cedar-wasm/nodejs';
import type { CedarWasm } from './cedar.loader.js';
import type { PolicyText, SetTexts } from './policy-sources.js';
import { describeError, type PolicyOrigin } from './source-location.js';
import {
  validationKey,
  type KeptPolicy,
  type KeptVerdict,
  type ValidationCache,
} from './validation.cache.js';

/** One parsed policy or template, with where it came from. */
export interface CompiledPolicy {
  readonly id: string;
  readonly template: boolean;
  readonly text: string;
  readonly json: PolicyJson;
  readonly origin: PolicyOrigin;
  /** Which text of the set it is in: an index into its policies, then its templates. */
  readonly source: number;
}

/** A parsed, validated policy set: the unit that is applied atomically. */
export interface CompiledSet {
  readonly policies: ReadonlyMap<string, CompiledPolicy>;
  readonly links: readonly TemplateLink[];
  /** A digest of the set: `policyVersion` in audit events and metrics. */
  readonly version: string;
}

/** What compiling gave: a set, or Cedar's diagnostics with `file:line:col`. */
export type CompileResult =
  | { readonly ok: true; readonly set: CompiledSet; readonly warnings: string[] }
  | { readonly ok: false; readonly errors: string[] };

/* Validation is per policy; chunks keep a large set from holding the event loop in one call. */
const VALIDATE_CHUNK = 100;
const PARSE_CHUNK = 50;

/**
 * Parses every text, names each policy (`@id("…")`, else `<file>:<index>`), and validates the
 * whole set against `schema` in strict mode. `pause` is awaited between chunks of work, so a
 * reload of a large set never stalls the server for long. With `cache`, a set that validated
 * before with exactly these inputs takes that verdict and that parse (validation.cache.ts): it
 * parses and validates nothing.
 */
export async function compilePolicySet(
  cedar: CedarWasm,
  texts: SetTexts,
  schema: SchemaJson<string>,
  pause: () => Promise<void> = async () => {},
  cache?: ValidationCache,
): Promise<CompileResult> {
  const sources = [
    ...texts.policies.map((text) => ({ text, template: false })),
    ...(texts.templates ?? []).map((text) => ({ text, template: true })),
  ];
  const links = [...(texts.links ?? [])];
  const set = (policies: Map<string, CompiledPolicy>): CompiledSet => ({
    policies,
    links,
    version: digestOf(policies, links),
  });
  const key = cache && validationKey(cedar.getCedarSDKVersion(), schema, texts, links);
  const kept = key === undefined ? undefined : cache?.read(key);
  const restored = kept && restore(kept, sources);
  if (kept && restored) return { ok: true, set: set(restored), warnings: [...kept.warnings] };
  const errors: string[] = [];
  const policies = new Map<string, CompiledPolicy>();
  for (const [index, { text, template }] of sources.entries()) {
    await parseText(cedar, text, index, template, policies, errors, pause);
  }
  if (errors.length > 0) return { ok: false, errors };
  const warnings: string[] = [];
  const all = [...policies.values()];
  for (let start = 0; start < all.length; start += VALIDATE_CHUNK) {
    validateChunk(
      cedar,
      all.slice(start, start + VALIDATE_CHUNK),
      [],
      policies,
      schema,
      errors,
      warnings,
    );
    await pause();
  }
  if (links.length > 0) {
    // A link is checked against its template: the templates go again, their findings are not.
    const templates = all.filter((policy) => policy.template);
    validateChunk(cedar, templates, links, policies, schema, errors, warnings, true);
  }
  if (errors.length > 0) return { ok: false, errors };
  if (key !== undefined) cache?.write(key, { warnings, policies: all.map(keptOf) });
  return { ok: true, set: set(policies), warnings };
}

/*
 * The policies a kept verdict holds, as this set's: each where it says it is, of the kind its
 * text is, its id once. Anything else is a miss, and the set is parsed and validated again.
 */
function restore(
  kept: KeptVerdict,
  sources: readonly { readonly text: PolicyText; readonly template: boolean }[],
): Map<string, CompiledPolicy> | undefined {
  const policies = new Map<string, CompiledPolicy>();
  for (const { id, template, source, offset, text, json } of kept.policies) {
    const from = sources[source];
    if (!from || from.template !== template || policies.has(id) || !from.text.text.includes(text))
      return undefined;
    const origin = { file: from.text.name, text: from.text.text, offset };
    policies.set(id, { id, template, text, json, origin, source });
  }
  return policies;
}

function keptOf({ id, template, source, origin, text, json }: CompiledPolicy): KeptPolicy {
  return { id, template, source, offset: origin.offset, text, json };
}

async function parseText(
  cedar: CedarWasm,
  source: PolicyText,
  sourceIndex: number,
  template: boolean,
  into: Map<string, CompiledPolicy>,
  errors: string[],
  pause: () => Promise<void>,
): Promise<void> {
  const file: PolicyOrigin = { file: source.name, text: source.text, offset: 0 };
  const parts = cedar.policySetTextToParts(source.text);
  if (parts.type === 'failure') {
    for (const error of parts.errors) errors.push(describeError(file, error));
    return;
  }
  const texts = template ? parts.policy_templates : parts.policies;
  if (!template && parts.policy_templates.length > 0) {
    errors.push(`${source.name}: a template (a policy with slots) belongs in \`templates\``);
  }
  if (template && parts.policies.length > 0) {
    errors.push(`${source.name}: a policy without slots belongs in \`policies\``);
  }
  let cursor = 0;
  for (const [index, text] of texts.entries()) {
    // Converting a policy to JSON is the costly step of a parse: yield between slices of them.
    if (index > 0 && index % PARSE_CHUNK === 0) await pause();
    const found = source.text.indexOf(text, cursor);
    const offset = found >= 0 ? Buffer.byteLength(source.text.slice(0, found)) : 0;
    if (found >= 0) cursor = found + text.length;
    const origin: PolicyOrigin = { file: source.name, text: source.text, offset };
    const parsed = template ? cedar.templateToJson(text) : cedar.policyToJson(text);
    if (parsed.type === 'failure') {
      for (const error of parsed.errors) errors.push(describeError(origin, error));
      continue;
    }
    const id = parsed.json.annotations?.id ?? `${source.name}:${index}`;
    if (into.has(id)) {
      errors.push(`${source.name}: policy id "${id}" is used twice`);
      continue;
    }
    into.set(id, { id, template, text, json: parsed.json, origin, source: sourceIndex });
  }
  await pause();
}

function validateChunk(
  cedar: CedarWasm,
  chunk: readonly CompiledPolicy[],
  links: readonly TemplateLink[],
  all: ReadonlyMap<string, CompiledPolicy>,
  schema: SchemaJson<string>,
  errors: string[],
  warnings: string[],
  linksOnly = false,
): void {
  const staticPolicies: Record<string, string> = {};
  const templates: Record<string, string> = {};
  for (const policy of chunk)
    (policy.template ? templates : staticPolicies)[policy.id] = policy.text;
  const answer = cedar.validate({
    schema,
    policies: { staticPolicies, templates, templateLinks: [...links] },
    validationSettings: { mode: 'strict' },
  });
  if (answer.type === 'failure') {
    for (const error of answer.errors) errors.push(`policy set: ${error.message}`);
    return;
  }
  const origin = (id: string): PolicyOrigin =>
    all.get(id)?.origin ?? { file: `link "${id}"`, text: '', offset: 0 };
  const reported = (id: string) => !linksOnly || !all.has(id);
  for (const { policyId, error } of answer.validationErrors) {
    if (reported(policyId))
      errors.push(describeError(origin(policyId), error, `policy "${policyId}": `));
  }
  for (const { policyId, error } of answer.validationWarnings) {
    if (reported(policyId))
      warnings.push(describeError(origin(policyId), error, `policy "${policyId}": `));
  }
}

function digestOf(
  policies: ReadonlyMap<string, CompiledPolicy>,
  links: readonly TemplateLink[],
): string {
  const hash = createHash('sha256');
  for (const id of [...policies.keys()].sort())
    hash.update(`${id}\u0000${policies.get(id)!.text}\u0000`);
  hash.update(JSON.stringify(links));
  return hash.digest('hex').slice(0, 16);
}
