import { Socket } from 'node:net';
import { describeGated } from './gated-describe.js';

/*
 * The gate of the suites that need a running server we ship against (Redis for
 * cluster mode, PostgreSQL for the shared notes store). Without the server a
 * suite is skipped with one printed line; with MCP_WARDEN_REQUIRE_SERVICES=1
 * (as CI sets) it fails instead, so an absent server cannot pass as a skip.
 */

/** The environment variable that turns an absent server from a skip into a failure. */
export const REQUIRE_SERVICES_ENV = 'MCP_WARDEN_REQUIRE_SERVICES';

/** Where the suites find Redis (override with MCP_WARDEN_TEST_REDIS_URL). */
export const TEST_REDIS_URL = process.env.MCP_WARDEN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Where the suites find PostgreSQL (override with MCP_WARDEN_TEST_DATABASE_URL). */
export const TEST_DATABASE_URL =
  process.env.MCP_WARDEN_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** What a suite gets: the server's URL, or why it cannot have it. */
export type ServiceLookup =
  | { readonly found: true; readonly url: string }
  | { readonly found: false; readonly reason: string };

/** Whether a TCP listener answers at `url`'s host and port within `timeoutMs`. */
export function findService(url: string, timeoutMs = 1000): Promise<ServiceLookup> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (lookup: ServiceLookup): void => {
      socket.destroy();
      resolve(lookup);
    };
    socket.setTimeout(timeoutMs, () => done({ found: false, reason: `${url}: no answer` }));
    socket.once('error', (error) => done({ found: false, reason: `${url}: ${error.message}` }));
    socket.connect(Number(port), hostname, () => done({ found: true, url }));
  });
}

/** Whether this run must have every server (CI). */
export function servicesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[REQUIRE_SERVICES_ENV] === '1';
}

/**
 * `describe(title, body)` when the server answered. When it did not: with
 * MCP_WARDEN_REQUIRE_SERVICES=1, one failing test that names it; otherwise the
 * suite is skipped and one line says why.
 */
export function describeWithService(
  lookup: ServiceLookup,
  title: string,
  body: (url: string) => void,
): void {
  const found = lookup.found ? { value: lookup.url } : { reason: lookup.reason };
  describeGated(found, title, REQUIRE_SERVICES_ENV, body, '');
}
