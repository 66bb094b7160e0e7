// @ts-check
// The soak's cluster mode (scripts/soak.mjs --cluster): three notes-service instances in
// cluster mode (one Redis, one PostgreSQL schema of their own) behind the round-robin proxy, on
// loopback. Writers create notes over Streamable HTTP sessions through the proxy (so every
// session's requests land on every instance); readers search and list. Halfway through, one
// instance is killed with SIGKILL. Checks: every note a client was told was created is in the
// database afterwards with its title (0 acknowledged writes lost); every response answers the
// request it names (0 crossed); every call ends with a response or an error, none in silence
// (a call's client-side timeout is a failure); the other instances keep serving (writes
// acknowledged after the kill). A writer whose session died with its instance opens another.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startRoundRobinProxy } from '../../examples/cluster/round-robin-proxy.mjs';
import { SseParser, isMessage } from '../../test/support/sse-parser.mjs';
import { CALL_TIMEOUT_MS } from './options.mjs';
import { say } from './figures.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = join(ROOT, 'dist/app/main.js');
const BANNER = /MCP Warden notes service: (http:\/\/\S+)\/mcp/;
const INSTANCES = 3;

/**
 * @typedef {object} ClusterSoakOptions
 * @property {number} durationMs
 * @property {number} sessions concurrent writers (as many readers again)
 * @property {boolean} json
 * @property {string} redisUrl
 * @property {string} databaseUrl
 */

/**
 * @typedef {object} Tally
 * @property {number} calls
 * @property {number} answered
 * @property {number} errors calls that ended with an error (the instance died, its session went)
 * @property {number} silent calls that ended with nothing before CALL_TIMEOUT_MS
 * @property {number} crossed responses naming another request, or another note's title
 * @property {number} sessions sessions opened
 * @property {number} openFailures sessions that could not be opened (an instance just died)
 * @property {number} writesAfterKill
 * @property {string[]} problems
 */

/** @param {string} baseUrl @param {string} schema */
function schemaUrl(baseUrl, schema) {
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/**
 * One instance of the service; `base` resolves to its origin once it listens.
 * @param {number} index @param {Record<string, string>} env
 */
function startInstance(index, env) {
  const dataDir = mkdtempSync(join(tmpdir(), `mcp-warden-soak-cluster-${index}-`));
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      ...env,
      NODE_OPTIONS: '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  const base = new Promise((resolveBase, reject) => {
    child.stderr.on('data', (chunk) => {
      text += chunk;
      if (text.length > 1_000_000) text = text.slice(-100_000);
      const match = BANNER.exec(text);
      if (match) resolveBase(match[1]);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`instance ${index} exited (${code ?? signal}) before listening: ${text}`)),
    );
  });
  base.catch(() => undefined);
  return { child, base, dataDir };
}

/**
 * A Streamable HTTP session through the proxy. `call` resolves with the JSON-RPC response to its
 * request (JSON or the SSE stream's), or with `{ lost: true }` past CALL_TIMEOUT_MS.
 */
class Session {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    this.id = '';
    this.nextId = 1;
  }

  headers() {
    return {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(this.id ? { 'mcp-session-id': this.id, 'mcp-protocol-version': '2025-11-25' } : {}),
    };
  }

  async open() {
    const init = await this.call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'soak-cluster', version: '1' },
    });
    if (!init.message?.result) throw new Error(`initialize: ${JSON.stringify(init)}`);
    const ack = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await ack.arrayBuffer();
    if (ack.status !== 202) throw new Error(`notifications/initialized: HTTP ${ack.status}`);
  }

  /**
   * @param {string} method @param {object} params
   * @returns {Promise<{ id: number, status?: number, message?: any, lost?: boolean, failed?: string }>}
   */
  async call(method, params) {
    const id = this.nextId++;
    const abort = AbortSignal.timeout(CALL_TIMEOUT_MS);
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: this.headers(),
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        signal: abort,
      });
      if (method === 'initialize') this.id = response.headers.get('mcp-session-id') ?? '';
      const text = await response.text();
      const type = response.headers.get('content-type') ?? '';
      let message;
      if (type.startsWith('text/event-stream')) {
        const events = new SseParser().push(`${text}\n\n`).filter(isMessage);
        // The stream's answer is its last message that is a response (notifications come before).
        message = events
          .map((event) => JSON.parse(event.data))
          .filter((m) => m.id !== undefined && m.method === undefined)
          .at(-1);
      } else if (text) {
        message = JSON.parse(text);
      }
      return { id, status: response.status, message };
    } catch (error) {
      if (abort.aborted) return { id, lost: true };
      return { id, failed: /** @type {Error} */ (error).message };
    }
  }
}

/**
 * A new session through the proxy, counted; undefined (counted too) when it could not be opened,
 * as when the instance it landed on just died.
 * @param {string} url @param {Tally} tally
 */
async function openSession(url, tally) {
  const session = new Session(url);
  try {
    await session.open();
    tally.sessions++;
    return session;
  } catch {
    tally.openFailures++;
    return undefined;
  }
}

/**
 * A writer: creates notes one after the other; each acknowledged note's id and title go into
 * `acknowledged`. A call that ends with an error (its instance died, its session is gone) opens
 * a new session.
 * @param {string} url @param {number} deadline @param {string} name
 * @param {Map<string, string>} acknowledged @param {Tally} tally @param {() => boolean} killed
 */
async function writer(url, deadline, name, acknowledged, tally, killed) {
  let session;
  for (let seq = 0; Date.now() < deadline; seq++) {
    session ??= await openSession(url, tally);
    if (!session) continue;
    const title = `${name}-${seq}`;
    tally.calls++;
    const outcome = await session.call('tools/call', {
      name: 'create_note',
      arguments: { title, body: `written by ${name}` },
    });
    if (outcome.lost) {
      tally.silent++;
      tally.problems.push(`${title}: no answer within ${CALL_TIMEOUT_MS} ms`);
      session = undefined;
      continue;
    }
    const message = outcome.message;
    if (message && message.id !== outcome.id) {
      tally.crossed++;
      tally.problems.push(`${title}: answered as request ${message.id}, sent as ${outcome.id}`);
      continue;
    }
    const note = message?.result?.structuredContent;
    if (message?.result && !message.result.isError && note?.id) {
      if (note.title !== title) {
        tally.crossed++;
        tally.problems.push(`${title}: acknowledged as "${note.title}"`);
        continue;
      }
      tally.answered++;
      acknowledged.set(note.id, title);
      if (killed()) tally.writesAfterKill++;
      continue;
    }
    // An error (HTTP or JSON-RPC): said, not silent. The session may be gone with its instance.
    tally.errors++;
    session = undefined;
  }
}

/**
 * A reader: searches and lists tools on its own session, checking each answer names its request.
 * @param {string} url @param {number} deadline @param {Tally} tally
 */
async function reader(url, deadline, tally) {
  let session;
  while (Date.now() < deadline) {
    session ??= await openSession(url, tally);
    if (!session) continue;
    tally.calls++;
    const outcome =
      tally.calls % 2 === 0
        ? await session.call('tools/list', {})
        : await session.call('tools/call', { name: 'search_notes', arguments: { query: 'w' } });
    if (outcome.lost) {
      tally.silent++;
      tally.problems.push(`a read got no answer within ${CALL_TIMEOUT_MS} ms`);
      session = undefined;
    } else if (outcome.message?.id !== undefined && outcome.message.id !== outcome.id) {
      tally.crossed++;
      tally.problems.push(
        `a read answered as request ${outcome.message.id}, sent as ${outcome.id}`,
      );
    } else if (outcome.message?.result) {
      tally.answered++;
    } else {
      tally.errors++;
      session = undefined;
    }
  }
}

/**
 * Runs the cluster soak; resolves with the exit code (0: every check held).
 * @param {ClusterSoakOptions} options
 */
export async function runClusterSoak(options) {
  const schema = `soak_cluster_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: options.databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const env = {
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: `mcp-warden-soak-${randomBytes(4).toString('hex')}:`,
    MCP_STATE_SECRET: randomBytes(32).toString('base64url'),
    DATABASE_URL: schemaUrl(options.databaseUrl, schema),
    CALLS_PER_SECOND_PER_PRINCIPAL: '1000000',
  };
  const instances = Array.from({ length: INSTANCES }, (_, index) => startInstance(index, env));
  let proxy;
  /** @type {Tally} */
  const tally = {
    calls: 0,
    answered: 0,
    errors: 0,
    silent: 0,
    crossed: 0,
    sessions: 0,
    openFailures: 0,
    writesAfterKill: 0,
    problems: [],
  };
  try {
    const bases = await Promise.all(instances.map((instance) => instance.base));
    proxy = await startRoundRobinProxy(bases);
    const url = `${proxy.url}/mcp`;
    say(
      `cluster mode: ${INSTANCES} instances behind ${proxy.url}, ${options.sessions} writers and ` +
        `${options.sessions} readers for ${options.durationMs} ms; instance 2 is killed (SIGKILL) halfway`,
    );
    const started = Date.now();
    const deadline = started + options.durationMs;
    /** @type {Map<string, string>} */
    const acknowledged = new Map();
    let killedAt = 0;
    const kill = setTimeout(() => {
      killedAt = Date.now();
      instances[2].child.kill('SIGKILL');
    }, options.durationMs / 2);
    await Promise.all([
      ...Array.from({ length: options.sessions }, (_, index) =>
        writer(url, deadline, `w${index}`, acknowledged, tally, () => killedAt > 0),
      ),
      ...Array.from({ length: options.sessions }, () => reader(url, deadline, tally)),
    ]);
    clearTimeout(kill);

    const rows = await admin.query(`select id, title from ${schema}.notes`);
    const stored = new Map(rows.rows.map((row) => [row.id, row.title]));
    const lost = [...acknowledged].filter(([id, title]) => stored.get(id) !== title);
    say(
      `cluster: ${tally.calls} calls in ${((Date.now() - started) / 1000).toFixed(1)} s over ` +
        `${tally.sessions} sessions: answered ${tally.answered}, ended with an error ${tally.errors}, ` +
        `silent ${tally.silent}, crossed ${tally.crossed}`,
    );
    say(
      `cluster: ${acknowledged.size} notes acknowledged (${tally.writesAfterKill} after the kill), ` +
        `${stored.size} in the database, acknowledged but missing ${lost.length}`,
    );
    const failures = [
      ...(lost.length > 0 ? [`${lost.length} acknowledged notes missing, e.g. ${lost[0]}`] : []),
      ...(tally.crossed > 0 ? [`${tally.crossed} crossed responses`] : []),
      ...(tally.silent > 0 ? [`${tally.silent} calls ended in silence`] : []),
      ...(tally.writesAfterKill === 0 ? ['no write was acknowledged after the kill'] : []),
      ...(acknowledged.size === 0 ? ['no write was acknowledged'] : []),
    ];
    for (const problem of tally.problems.slice(0, 10)) say(`problem: ${problem}`);
    for (const failure of failures) say(`FAIL: ${failure}`);
    const exitCode = failures.length === 0 ? 0 : 1;
    say(exitCode === 0 ? 'PASS' : 'FAIL');
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ mode: 'cluster', ...tally, problems: undefined, acknowledged: acknowledged.size, stored: stored.size, lost: lost.length, failures })}\n`,
      );
    }
    return exitCode;
  } finally {
    await proxy?.close();
    await Promise.all(
      instances.map(async ({ child, dataDir }) => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          await once(child, 'exit');
        }
        rmSync(dataDir, { recursive: true, force: true });
      }),
    );
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
}
