import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  opendirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  constants as fs,
  type Dir,
  type Stats,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import type { PolicyJson, SchemaJson, TemplateLink } from '@cedar-policy/cedar-wasm/nodejs';
import type { PolicyText } from './policy-sources.js';

/*
 * Strict validation's verdict on a policy set, kept between starts (docs/policy.md,
 * "Performance"). Cedar's validator was most of what a policy cost a stdio server's start: a
 * desktop client starts one per session, with the same policies and the same tools each time.
 * A verdict is kept only for a set that validated, under a digest of everything validation reads
 * (Cedar's version, the schema, every source's name and text, the links), so a set that differs
 * in any way, or that never validated, is validated again; a boot never trusts a verdict it did
 * not write for exactly these inputs.
 *
 * The parse is kept with the verdict: Cedar's parser costs half a millisecond a policy warm, and a
 * start that takes the verdict takes the policies as the start that wrote it parsed them from
 * these very texts. It lives where the app asked Node to keep compiled code
 * (`module.enableCompileCache()`, which the launcher of `mcp-warden bundle` calls), and only
 * there: a file or folder another user could have written is not read. The folder is trusted as
 * far as Node's compile cache in it is, which holds the app's own compiled code.
 */

/** A policy as the boot that kept the verdict parsed it. */
export interface KeptPolicy {
  readonly id: string;
  readonly template: boolean;
  /** Which text of the set it is in: an index into its policies, then its templates. */
  readonly source: number;
  /** Where it starts in that text, in bytes (for messages that name a line). */
  readonly offset: number;
  readonly text: string;
  readonly json: PolicyJson;
}

/** What was kept for a set that validated: its warnings, which a boot logs again, and its parse. */
export interface KeptVerdict {
  readonly warnings: readonly string[];
  readonly policies: readonly KeptPolicy[];
}

export interface ValidationCache {
  read(key: string): KeptVerdict | undefined;
  write(key: string, verdict: KeptVerdict): void;
}

/**
 * Bumped when what a verdict holds, or how its key is made, changes; and when the compiler's
 * reading of a text does (policy-set.compiler.ts, parseText: ids, kinds, offsets), since a kept
 * parse is that reading.
 */
const FORMAT = 'mcp-warden.cedar-validation.2';
const FOLDER = 'mcp-warden-cedar-validation';
/** A verdict's file name (fileOf); one being written has a temporary name starting with a dot. */
const VERDICT = /^[0-9a-f]{64}\.json$/;

/** The digest of everything strict validation of this set reads. */
export function validationKey(
  cedarVersion: string,
  schema: SchemaJson<string>,
  sources: { readonly policies: readonly PolicyText[]; readonly templates?: readonly PolicyText[] },
  links: readonly TemplateLink[],
): string {
  const hash = createHash('sha256');
  // Each part as a JSON string: a text may hold any character, a separator included, so two
  // different sets must never read as one.
  hash.update(JSON.stringify([FORMAT, cedarVersion, schema]));
  for (const [kind, texts] of [
    ['policies', sources.policies],
    ['templates', sources.templates ?? []],
  ] as const) {
    for (const { name, text } of texts) hash.update(JSON.stringify([kind, name, text]));
  }
  hash.update(JSON.stringify(links));
  return hash.digest('hex');
}

/** Node's compile cache folder, when the process has one (Node 22.8+, turned on). */
function compileCacheDir(): string | undefined {
  return (nodeModule as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
}

/**
 * The cache in the compile cache folder (`cacheDir`, by default this process's); without one,
 * none, and every boot validates.
 */
export function compileCacheValidation(
  cacheDir = compileCacheDir(),
): FolderValidationCache | undefined {
  return cacheDir ? new FolderValidationCache(join(cacheDir, FOLDER)) : undefined;
}

/**
 * Whether the compile cache folder (`cacheDir`, by default this process's) holds any verdict.
 * Then a boot most likely finds its own (the same app, started again) and runs no validation,
 * so the engine's warm-up leaves the validator out (cedar-compile.worker.ts). A guess that only
 * moves work: a boot that does validate compiles the validator's code itself.
 */
export function keepsVerdicts(cacheDir = compileCacheDir()): boolean {
  return compileCacheValidation(cacheDir)?.holdsAny() ?? false;
}

/*
 * The shape of a kept policy, down to what the engine reads of its JSON without Cedar (its
 * effect, scope and annotations); whether it belongs to the set is the compiler's to check.
 */
function isKeptPolicy(value: unknown): value is KeptPolicy {
  const policy = value as Partial<Record<keyof KeptPolicy, unknown>> | null;
  return (
    isObject(policy) &&
    typeof policy.id === 'string' &&
    typeof policy.template === 'boolean' &&
    Number.isSafeInteger(policy.source) &&
    Number.isSafeInteger(policy.offset) &&
    typeof policy.text === 'string' &&
    isPolicyJson(policy.json)
  );
}

/* What the engine reads of a policy's JSON (action-partition.ts, decision.mapper.ts) is there. */
function isPolicyJson(value: unknown): boolean {
  const json = value as Partial<Record<string, unknown>> | null;
  return (
    isObject(json) &&
    (json.effect === 'permit' || json.effect === 'forbid') &&
    isScope(json.principal) &&
    isScope(json.action) &&
    isScope(json.resource) &&
    Array.isArray(json.conditions) &&
    json.conditions.every(
      (condition: { kind?: unknown; body?: unknown }) =>
        isObject(condition) &&
        (condition.kind === 'when' || condition.kind === 'unless') &&
        isObject(condition.body),
    ) &&
    (json.annotations === undefined ||
      (isObject(json.annotations) &&
        Object.values(json.annotations).every((note) => note === null || typeof note === 'string')))
  );
}

/* A scope: an entity, entities (an action's `in`), a template's slot, or a type (`is`). */
function isScope(value: unknown): boolean {
  const scope = value as Partial<
    Record<'op' | 'entity' | 'entities' | 'slot' | 'entity_type', unknown>
  >;
  if (!isObject(scope)) return false;
  const named =
    isObject(scope.entity) ||
    typeof scope.slot === 'string' ||
    (Array.isArray(scope.entities) && scope.entities.every(isObject));
  switch (scope.op) {
    case 'All':
      return true;
    case '==':
    case 'in':
      return named;
    case 'is':
      return typeof scope.entity_type === 'string';
    default:
      return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Whether `stats` is this user's and no one else may write it. */
function ownedAlone(stats: Stats): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0;
}

/** One small file per verdict. Anything unexpected is a miss: the set is validated. */
export class FolderValidationCache implements ValidationCache {
  constructor(private readonly dir: string) {}

  read(key: string): KeptVerdict | undefined {
    let fd: number | undefined;
    try {
      if (!ownedAlone(statSync(this.dir))) return undefined;
      fd = openSync(this.fileOf(key), fs.O_RDONLY | fs.O_NOFOLLOW);
      if (!ownedAlone(fstatSync(fd))) return undefined;
      const kept = JSON.parse(readFileSync(fd, 'utf8')) as Partial<Record<string, unknown>>;
      const { warnings, policies } = kept;
      const valid =
        kept.key === key &&
        Array.isArray(warnings) &&
        warnings.every((warning) => typeof warning === 'string') &&
        Array.isArray(policies) &&
        policies.every(isKeptPolicy);
      return valid ? { warnings, policies } : undefined;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /* Written whole under a temporary name, then renamed: a reader sees all of it or nothing. */
  write(key: string, verdict: KeptVerdict): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      if (!ownedAlone(statSync(this.dir))) return;
      const temporary = join(this.dir, `.${key}.${randomBytes(6).toString('hex')}`);
      const { warnings, policies } = verdict;
      writeFileSync(temporary, JSON.stringify({ key, warnings, policies }), {
        mode: 0o600,
        flag: 'wx',
      });
      renameSync(temporary, this.fileOf(key));
    } catch {
      // A cache that cannot be written only costs the next start its validation.
    }
  }

  /** Whether any verdict is kept, reading the folder up to the first one. */
  holdsAny(): boolean {
    let dir: Dir;
    try {
      dir = opendirSync(this.dir);
    } catch {
      return false;
    }
    try {
      for (let entry = dir.readSync(); entry; entry = dir.readSync()) {
        if (VERDICT.test(entry.name)) return true;
      }
      return false;
    } catch {
      return false;
    } finally {
      dir.closeSync();
    }
  }

  private fileOf(key: string): string {
    return join(this.dir, `${key}.json`);
  }
}
