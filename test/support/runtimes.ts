import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeGated } from './gated-describe.js';

/*
 * The gate of the suites that drive tools installed under tools/runtimes
 * (other Node versions, the Inspector CLI, the conformance runner), which a
 * plain `npm ci` does not install. Without them such a suite is skipped with
 * one line saying why; with MCP_WARDEN_REQUIRE_RUNTIMES=1 (as CI sets) it
 * fails instead, so a broken install cannot pass as a skip.
 */

/** The module that knows where each runtime is (`tools/runtimes/paths.mjs`). */
export const RUNTIME_PATHS_MODULE = resolve(process.cwd(), 'tools/runtimes/paths.mjs');

/** The environment variable that turns a missing runtime from a skip into a failure. */
export const REQUIRE_RUNTIMES_ENV = 'MCP_WARDEN_REQUIRE_RUNTIMES';

/** What a suite gets: the path of every runtime it asked for, or why it cannot have them. */
export type RuntimeLookup<N extends string> =
  | { readonly found: true; readonly paths: Readonly<Record<N, string>> }
  | { readonly found: false; readonly reason: string };

interface PathsModule {
  runtimePaths(): Record<string, string | undefined>;
  missingRuntimes(): [string, string][];
}

/** Looks up `names` in tools/runtimes (nothing is thrown: a missing runtime is a reason). */
export async function findRuntimes<N extends string>(
  names: readonly N[],
  modulePath: string = RUNTIME_PATHS_MODULE,
): Promise<RuntimeLookup<N>> {
  if (!existsSync(modulePath)) {
    return { found: false, reason: `${modulePath} is absent (tools/runtimes is not installed)` };
  }
  const tools = (await import(pathToFileURL(modulePath).href)) as PathsModule;
  const paths = tools.runtimePaths();
  const problems = new Map(tools.missingRuntimes());
  const missing = names.filter((name) => paths[name] === undefined);
  if (missing.length > 0) {
    const reasons = missing.map((name) => `${name}: ${problems.get(name) ?? 'not installed'}`);
    return { found: false, reason: reasons.join('; ') };
  }
  const found = Object.fromEntries(names.map((name) => [name, paths[name] as string]));
  return { found: true, paths: found as Record<N, string> };
}

/** Whether this run must have every runtime (CI). */
export function runtimesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[REQUIRE_RUNTIMES_ENV] === '1';
}

/**
 * `describe(title, body)` when the runtimes were found. When they were not:
 * with MCP_WARDEN_REQUIRE_RUNTIMES=1, one failing test that names what is
 * missing; otherwise the suite is skipped and one line says why.
 */
export function describeWithRuntimes<N extends string>(
  lookup: RuntimeLookup<N>,
  title: string,
  body: (paths: Readonly<Record<N, string>>) => void,
): void {
  const found = lookup.found ? { value: lookup.paths } : { reason: lookup.reason };
  const nowhere = new Proxy({}, { get: () => '' }) as Record<N, string>;
  describeGated(found, title, REQUIRE_RUNTIMES_ENV, body, nowhere);
}
