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
import type { SchemaJson, TemplateLink } from '@cedar-policy/cedar-wasm/nodejs';
import type { PolicyText } from './policy-sources.js';

/*
 * Strict validation's verdict on a policy set, kept between starts (docs/policy.md,
 * "Performance"). Cedar's validator was most of what a policy cost a stdio server's start: a
 * desktop client starts one per session, with the same policies and the same tools each time.
 * A verdict is kept only for a set that validated, under a digest of everything validation reads
 * (Cedar's version, the schema, every source's name and text, the links), so a set that differs
 * in any way, or that never validated, is validated again; a boot never trusts a verdict it did
 * not write for exactly these inputs. It lives where the app asked Node to keep compiled code
 * (`module.enableCompileCache()`, which the launcher of `mcp-warden bundle` calls), and only
 * there: a file or folder another user could have written is not read.
 */

/** What was kept for a set that validated: its warnings, which a boot logs again. */
export interface ValidationCache {
  read(key: string): string[] | undefined;
  write(key: string, warnings: readonly string[]): void;
}

/** Bumped when what a verdict holds, or how its key is made, changes. */
const FORMAT = 'mcp-warden.cedar-validation.1';
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
  hash.update(`${FORMAT}\u0000${cedarVersion}\u0000${JSON.stringify(schema)}\u0000`);
  for (const [kind, texts] of [
    ['policies', sources.policies],
    ['templates', sources.templates ?? []],
  ] as const) {
    for (const { name, text } of texts) hash.update(`${kind}\u0000${name}\u0000${text}\u0000`);
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

/** Whether `stats` is this user's and no one else may write it. */
function ownedAlone(stats: Stats): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0;
}

/** One small file per verdict. Anything unexpected is a miss: the set is validated. */
export class FolderValidationCache implements ValidationCache {
  constructor(private readonly dir: string) {}

  read(key: string): string[] | undefined {
    let fd: number | undefined;
    try {
      if (!ownedAlone(statSync(this.dir))) return undefined;
      fd = openSync(this.fileOf(key), fs.O_RDONLY | fs.O_NOFOLLOW);
      if (!ownedAlone(fstatSync(fd))) return undefined;
      const kept = JSON.parse(readFileSync(fd, 'utf8')) as { key?: unknown; warnings?: unknown };
      const { warnings } = kept;
      const valid =
        kept.key === key &&
        Array.isArray(warnings) &&
        warnings.every((warning) => typeof warning === 'string');
      return valid ? (warnings as string[]) : undefined;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /* Written whole under a temporary name, then renamed: a reader sees all of it or nothing. */
  write(key: string, warnings: readonly string[]): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      if (!ownedAlone(statSync(this.dir))) return;
      const temporary = join(this.dir, `.${key}.${randomBytes(6).toString('hex')}`);
      writeFileSync(temporary, JSON.stringify({ key, warnings }), { mode: 0o600, flag: 'wx' });
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
