// @ts-check
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const HTTP_APP = join(ROOT, 'test/fixtures/soak/soak-http.mjs');
export const STDIO_APP = join(ROOT, 'test/fixtures/soak/soak-stdio.mjs');

/**
 * @typedef {object} SoakStats what the HTTP app reports at /soak/stats
 * @property {number} sessions
 * @property {number} bufferedEvents
 * @property {number} connections
 * @property {number} inflight
 * @property {number} pendingServerRequests
 * @property {number} heapUsed
 * @property {number} rss
 * @property {number} loopMaxMs the app's longest event-loop delay since the previous stats
 * @property {number} loopP99Ms its p99
 */

/**
 * Spawns the HTTP fixture app (with GC exposed, for the memory figures); `url` resolves to the
 * MCP endpoint it announces on stderr, or rejects if it exits first. SOAK_APP_FLAGS adds Node
 * flags to the app's command line (for example `--cpu-prof`, to see where a stall came from).
 * @param {Record<string, string>} appEnv
 */
export function spawnHttpApp(appEnv) {
  const flags = (process.env.SOAK_APP_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, ['--expose-gc', ...flags, HTTP_APP], {
    env: { ...process.env, ...appEnv, NODE_OPTIONS: '', PORT: '0' },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  /** @type {Promise<string>} */
  const url = new Promise((resolve, reject) => {
    let text = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      text += chunk;
      const match = /soak app: (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(text);
      if (match) resolve(match[1]);
    });
    exited.then(({ code, signal }) =>
      reject(new Error(`soak app exited (${code ?? signal}): ${text}`)),
    );
  });
  return { child, exited, url };
}

/**
 * The app's counters and memory, after a full GC when `gc`.
 * @param {string} url
 * @param {boolean} gc
 * @returns {Promise<SoakStats>}
 */
export async function stats(url, gc) {
  const response = await fetch(new URL(`/soak/stats${gc ? '?gc=1' : ''}`, url));
  return /** @type {Promise<SoakStats>} */ (response.json());
}
