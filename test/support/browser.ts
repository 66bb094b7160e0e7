import { existsSync } from 'node:fs';
import { describeGated } from './gated-describe.js';

/*
 * The gate of the browser suites: a Chromium on the machine (Debian's
 * `chromium`, or MCP_WARDEN_CHROMIUM), driven by playwright-core. Without one
 * a suite is skipped with one printed line; with MCP_WARDEN_REQUIRE_BROWSER=1
 * (as CI sets) it fails instead, so a missing browser cannot pass as a skip.
 */

/** The environment variable that turns a missing browser from a skip into a failure. */
export const REQUIRE_BROWSER_ENV = 'MCP_WARDEN_REQUIRE_BROWSER';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Where the browser is, or why there is none. */
export function findBrowser(
  env: NodeJS.ProcessEnv = process.env,
): { readonly value: string } | { readonly reason: string } {
  const candidates = env.MCP_WARDEN_CHROMIUM ? [env.MCP_WARDEN_CHROMIUM] : CANDIDATES;
  const found = candidates.find((path) => existsSync(path));
  return found ? { value: found } : { reason: `no Chromium at ${candidates.join(', ')}` };
}

/**
 * `describe(title, body)` with the browser's path when one was found; when
 * not: with MCP_WARDEN_REQUIRE_BROWSER=1, one failing test that says so;
 * otherwise the suite is skipped and one line says why.
 */
export function describeWithBrowser(title: string, body: (executablePath: string) => void): void {
  describeGated(findBrowser(), title, REQUIRE_BROWSER_ENV, body, '');
}
