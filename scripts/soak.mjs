#!/usr/bin/env node
/*
 * Soak test: many concurrent MCP sessions over Streamable HTTP, plus stdio
 * clients, against the soak fixture app (test/fixtures/soak), bounded in time
 * and in calls, on loopback only.
 *
 *   node scripts/soak.mjs [--short] [--duration-ms N] [--sessions N] [--stdio N]
 *                         [--max-calls N] [--elicitation-timeout-ms N] [--json]
 *
 * Long mode (default, `npm run soak`): 60 s, 50 concurrent HTTP sessions, 2 stdio clients.
 * Short mode (--short, used by test/soak.e2e-spec.ts): 10 s, 8 sessions, 1 stdio client.
 * Environment: SOAK_DURATION_MS, SOAK_SESSIONS, SOAK_STDIO, SOAK_MAX_CALLS and
 * SOAK_ELICITATION_TIMEOUT_MS (the app's elicitationTimeoutMs: 1 s short, 2.5 s long) override
 * the mode; so do the matching flags (--elicitation-timeout-ms N).
 *
 * Each HTTP worker opens a session (elicitation declared), opens its GET stream, subscribes to
 * its own URI, runs a random mix of calls (echo, slow_echo, guarded with the approval
 * approved, declined or left to time out, touch, resource reads, ping), one to three at a
 * time, then DELETEs the session and opens the next. Each stdio worker spawns the stdio app and
 * does the same over one connection, several calls in flight at once, then closes stdin.
 *
 * Checks: every call answered exactly once (lost = no answer, duplicated = more than one) with
 * the right result (wrong = anything else); nothing crossed between sessions (another
 * session's token or connection id in a result, an elicitation or a notification for another
 * session); the stdio app exits 0; after the run, with garbage collected: sessions,
 * connections, calls in flight, pending server→client requests and buffered events all 0, and
 * heap and RSS back near the baseline taken after a warm-up.
 *
 * Prints the figures on stderr (and, with --json, one JSON line on stdout); exits 1 on any
 * failed check. Requires `npm run build` (the fixture runs on dist/).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HTTP_APP = join(ROOT, 'test/fixtures/soak/soak-http.mjs');
const STDIO_APP = join(ROOT, 'test/fixtures/soak/soak-stdio.mjs');
const ACCEPT_BOTH = 'application/json, text/event-stream';
/** A call with no answer after this long is lost. */
const CALL_TIMEOUT_MS = 15_000;
/** How long a notification may take to arrive after the call that caused it was answered. */
const NOTIFY_TIMEOUT_MS = 5_000;
/** After the run, heap may exceed the baseline by this much (it is measured after a full GC). */
const HEAP_SLACK_BYTES = 16 * 1024 * 1024;
/** RSS may exceed the baseline by 50 % plus this (the allocator keeps pages it has touched). */
const RSS_SLACK_BYTES = 48 * 1024 * 1024;

function say(line) {
  process.stderr.write(`soak: ${line}\n`);
}

function parseArgs(argv) {
  const short = argv.includes('--short');
  const value = (flag, env, fallback, min = 1) => {
    const at = argv.indexOf(flag);
    const raw = at === -1 ? process.env[env] : argv[at + 1];
    const number = Number(raw);
    return raw !== undefined && Number.isInteger(number) && number >= min ? number : fallback;
  };
  return {
    short,
    json: argv.includes('--json'),
    durationMs: value('--duration-ms', 'SOAK_DURATION_MS', short ? 10_000 : 60_000),
    sessions: value('--sessions', 'SOAK_SESSIONS', short ? 8 : 50, 0),
    stdio: value('--stdio', 'SOAK_STDIO', short ? 1 : 2, 0),
    maxCalls: value('--max-calls', 'SOAK_MAX_CALLS', short ? 20_000 : 500_000),
    // Long enough that an approval sent at once is never beaten by the timeout on a loaded
    // machine; the "ignore" elicitations wait it out.
    elicitationTimeoutMs: value(
      '--elicitation-timeout-ms',
      'SOAK_ELICITATION_TIMEOUT_MS',
      short ? 1_000 : 2_500,
    ),
  };
}

/** Figures of the run; every counter but sessions and calls must end at 0. */
const figures = {
  httpSessions: 0,
  stdioSessions: 0,
  calls: 0,
  answered: 0,
  lost: 0,
  duplicated: 0,
  crossed: 0,
  wrong: 0,
  notifications: 0,
  lostNotifications: 0,
  elicitations: { approved: 0, declined: 0, timedOut: 0 },
  stdioExitFailures: 0,
  problems: [],
};

function problem(kind, detail) {
  figures[kind]++;
  if (figures.problems.length < 20) figures.problems.push(`${kind}: ${detail}`);
}

/** A uniformly random element of `items`. */
function pick(items) {
  return items[Math.floor(Math.random() * items.length)];
}

/** Resolves after `ms`, or rejects with the signal's reason. (Only bounds calls; never syncs.) */
function timeout(ms, what) {
  let timer;
  const promise = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Reads an SSE body, calling `onMessage` with each JSON-RPC message; resolves at its end. */
async function readSse(body, onMessage) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line[5] === ' ' ? 6 : 5))
        .join('\n');
      if (data) onMessage(JSON.parse(data));
    }
  }
}

/** What each operation sends and what its answer must be. */
const OPERATIONS = [
  { name: 'echo', weight: 30 },
  { name: 'slow_echo', weight: 15 },
  { name: 'guarded', weight: 20 },
  { name: 'read', weight: 15 },
  { name: 'touch', weight: 10 },
  { name: 'ping', weight: 10 },
];
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, op) => sum + op.weight, 0);

function randomOperation() {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const op of OPERATIONS) {
    roll -= op.weight;
    if (roll < 0) return op.name;
  }
  return 'ping';
}

/**
 * One client session, over either transport. `send(message, onServerRequest)` resolves with
 * the list of responses carrying the message's id (normally exactly one).
 */
class Client {
  constructor(kind, token) {
    this.kind = kind;
    this.token = token;
    this.uri = `soak://session/${token}`;
    this.connId = undefined;
    this.nextId = 1;
    this.touches = 0;
    this.updates = 0;
    this.updateWaiters = [];
    /** Decisions for guarded calls by text: 'approve' | 'decline' | 'ignore'. */
    this.decisions = new Map();
  }

  /** A notification arrived for this client. */
  onNotification(message) {
    if (message.method !== 'notifications/resources/updated') return;
    if (message.params?.uri !== this.uri) {
      problem('crossed', `${this.token} got an update for ${message.params?.uri}`);
      return;
    }
    this.updates++;
    figures.notifications++;
    this.updateWaiters = this.updateWaiters.filter((w) => {
      if (this.updates < w.count) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once `count` updates have arrived (or after the notification bound). */
  async awaitUpdates(count) {
    if (this.updates >= count) return;
    const bound = timeout(NOTIFY_TIMEOUT_MS, 'update');
    const arrived = new Promise((resolve) => this.updateWaiters.push({ count, resolve }));
    try {
      await Promise.race([arrived, bound.promise]);
    } catch {
      problem('lostNotifications', `${this.token} waited for update ${count}`);
    } finally {
      bound.cancel();
    }
  }

  /** The answer to a server request (an elicitation) for this client, or undefined to ignore it. */
  answerTo(request) {
    if (request.method !== 'elicitation/create') return undefined;
    const match = /^Run guarded for (.+)\/(.+)\?$/.exec(request.params?.message ?? '');
    if (!match || match[1] !== this.token) {
      problem('crossed', `${this.token} was asked: ${request.params?.message}`);
      return { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } };
    }
    const decision = this.decisions.get(match[2]);
    if (decision === 'approve') {
      return {
        jsonrpc: '2.0',
        id: request.id,
        result: { action: 'accept', content: { approve: true } },
      };
    }
    if (decision === 'decline')
      return { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } };
    return undefined; // 'ignore': the server's elicitation timeout decides
  }

  /** Checks an echo result: our token and text, and one connection id for the whole session. */
  checkEcho(result, text, what) {
    const sc = result?.structuredContent;
    if (!sc || result.isError) return problem('wrong', `${what}: ${JSON.stringify(result)}`);
    if (sc.token !== this.token || sc.text !== text) {
      return problem('crossed', `${what} for ${this.token}/${text}: ${JSON.stringify(sc)}`);
    }
    this.connId ??= sc.connId;
    if (sc.connId !== this.connId)
      problem('crossed', `${what}: connId ${sc.connId} ≠ ${this.connId}`);
  }

  /** Runs one operation and checks its answer. */
  async operate(op, seenConnIds) {
    if (figures.calls >= this.maxCalls) return;
    const n = this.nextId;
    const text = `${op}-${n}`;
    let message;
    let check;
    switch (op) {
      case 'echo':
      case 'slow_echo': {
        const args = { token: this.token, text };
        if (op === 'slow_echo') args.ms = Math.floor(Math.random() * 20);
        message = this.call('tools/call', { name: op, arguments: args });
        check = (r) => this.checkEcho(r.result, text, op);
        break;
      }
      case 'guarded': {
        const decision = pick(['approve', 'approve', 'decline', 'ignore']);
        this.decisions.set(text, decision);
        message = this.call('tools/call', {
          name: 'guarded',
          arguments: { token: this.token, text },
        });
        check = (r) => {
          this.decisions.delete(text);
          if (decision === 'approve') {
            figures.elicitations.approved++;
            return this.checkEcho(r.result, text, 'guarded');
          }
          const detail = decision === 'decline' ? 'user declined' : 'elicitation timed out';
          figures.elicitations[decision === 'decline' ? 'declined' : 'timedOut']++;
          const sc = r.result?.structuredContent;
          if (!r.result?.isError || sc?.detail !== detail || sc?.tool !== 'guarded') {
            problem('wrong', `guarded (${decision}): ${JSON.stringify(r)}`);
          }
        };
        break;
      }
      case 'read': {
        const uri = `soak://item/${this.token}-${n}`;
        message = this.call('resources/read', { uri });
        check = (r) => {
          const text0 = r.result?.contents?.[0]?.text;
          if (text0 !== `item ${this.token}-${n}`)
            problem(text0 ? 'crossed' : 'wrong', `read ${uri}: ${JSON.stringify(r)}`);
        };
        break;
      }
      case 'touch': {
        this.touches++;
        const expected = this.touches;
        message = this.call('tools/call', { name: 'touch', arguments: { uri: this.uri } });
        check = async (r) => {
          if (r.result?.content?.[0]?.text !== 'touched')
            problem('wrong', `touch: ${JSON.stringify(r)}`);
          await this.awaitUpdates(expected);
        };
        break;
      }
      default:
        message = this.call('ping');
        check = (r) => {
          if (!r.result || Object.keys(r.result).length !== 0)
            problem('wrong', `ping: ${JSON.stringify(r)}`);
        };
    }
    figures.calls++;
    let responses;
    const bound = timeout(CALL_TIMEOUT_MS, `${op} ${message.id}`);
    try {
      responses = await Promise.race([this.send(message), bound.promise]);
    } catch (error) {
      problem('lost', `${this.kind} ${this.token} ${op} #${message.id}: ${error.message}`);
      return;
    } finally {
      bound.cancel();
    }
    if (responses.length === 0)
      return problem('lost', `${this.token} ${op} #${message.id}: no response`);
    if (responses.length > 1)
      problem('duplicated', `${this.token} ${op} #${message.id}: ${responses.length}`);
    figures.answered++;
    const response = responses[0];
    if (response.id !== message.id)
      return problem('crossed', `${this.token}: id ${response.id} for ${message.id}`);
    await check(response);
    // HTTP connection ids are per session: one seen by two sessions means crossed state.
    if (this.kind === 'http' && this.connId) {
      const owner = seenConnIds.get(this.connId);
      if (owner === undefined) seenConnIds.set(this.connId, this.token);
      else if (owner !== this.token) {
        problem('crossed', `connection ${this.connId} seen by ${owner} and ${this.token}`);
      }
    }
  }

  call(method, params) {
    const message = { jsonrpc: '2.0', id: this.nextId++, method };
    if (params !== undefined) message.params = params;
    return message;
  }
}

/** A Streamable HTTP session driven with fetch. */
class HttpClient extends Client {
  constructor(url, token, maxCalls) {
    super('http', token);
    this.url = url;
    this.maxCalls = maxCalls;
    this.streamAbort = new AbortController();
  }

  headers(extra = {}) {
    const headers = { accept: ACCEPT_BOTH, 'content-type': 'application/json', ...extra };
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    return headers;
  }

  async open() {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(
        this.call('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: { elicitation: {} },
          clientInfo: { name: 'soak', version: '1.0.0' },
        }),
      ),
    });
    if (response.status !== 200)
      throw new Error(`initialize: HTTP ${response.status} ${await response.text()}`);
    this.sessionId = response.headers.get('mcp-session-id');
    await response.json();
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const stream = await fetch(this.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': this.sessionId },
      signal: this.streamAbort.signal,
    });
    if (stream.status !== 200) throw new Error(`GET stream: HTTP ${stream.status}`);
    this.streamDone = readSse(stream.body, (m) => this.onNotification(m)).catch(() => undefined);
    const [subscribed] = await this.send(this.call('resources/subscribe', { uri: this.uri }));
    if (!subscribed?.result) throw new Error(`subscribe: ${JSON.stringify(subscribed)}`);
    figures.httpSessions++;
  }

  /** POSTs a message that expects no answer (202). */
  async post(message) {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(message),
    });
    await response.arrayBuffer();
    if (response.status !== 202)
      throw new Error(`POST ${message.method ?? 'answer'}: HTTP ${response.status}`);
  }

  async send(message) {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(message),
    });
    const type = response.headers.get('content-type') ?? '';
    if (type.startsWith('application/json')) {
      const body = await response.json();
      return Array.isArray(body) ? body : [body];
    }
    if (!type.startsWith('text/event-stream')) {
      throw new Error(`HTTP ${response.status} ${type} ${await response.text()}`);
    }
    const responses = [];
    const answers = [];
    await readSse(response.body, (m) => {
      if (m.method !== undefined && m.id !== undefined) {
        const answer = this.answerTo(m);
        if (answer) answers.push(this.post(answer));
      } else if (m.method === undefined) {
        if (m.id === message.id) responses.push(m);
        else problem('crossed', `${this.token}: response ${m.id} on the stream of ${message.id}`);
      } else if (m.method !== 'notifications/cancelled') {
        this.onNotification(m);
      }
    });
    await Promise.all(answers);
    return responses;
  }

  async close() {
    const response = await fetch(this.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': this.sessionId },
    });
    await response.arrayBuffer();
    if (response.status !== 200) problem('wrong', `DELETE: HTTP ${response.status}`);
    this.streamAbort.abort();
    await this.streamDone;
  }
}

/** The stdio app, spawned; one client connection per process. */
class StdioClient extends Client {
  constructor(token, maxCalls) {
    super('stdio', token);
    this.maxCalls = maxCalls;
    this.pending = new Map();
  }

  async open() {
    this.child = spawn(process.execPath, [STDIO_APP], {
      env: { ...process.env, ...appEnv, NODE_OPTIONS: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    this.child.stderr.resume();
    this.child.stdin.on('error', () => undefined);
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        return problem('wrong', `stdio line is not JSON: ${line.slice(0, 200)}`);
      }
      if (m.method !== undefined && m.id !== undefined) {
        const answer = this.answerTo(m);
        if (answer) this.write(answer);
      } else if (m.method === undefined) {
        const entry = this.pending.get(m.id);
        if (!entry) return problem('duplicated', `stdio response ${m.id} with no request pending`);
        entry.responses.push(m);
        // Exactly once: a second response to the same id is seen as "no request pending".
        this.pending.delete(m.id);
        entry.resolve(entry.responses);
      } else if (m.method !== 'notifications/cancelled') {
        this.onNotification(m);
      }
    });
    const [init] = await this.send(
      this.call('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'soak', version: '1.0.0' },
      }),
    );
    if (!init?.result) throw new Error(`stdio initialize: ${JSON.stringify(init)}`);
    this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await this.send(this.call('resources/subscribe', { uri: this.uri }));
    figures.stdioSessions++;
  }

  write(message) {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  send(message) {
    return new Promise((resolve) => {
      this.pending.set(message.id, { responses: [], resolve });
      this.write(message);
    });
  }

  /** The app's own counts, then stdin closed: it must drain and exit 0. */
  async close() {
    const [stats] = await this.send(this.call('tools/call', { name: 'soak_stats', arguments: {} }));
    const counts = stats?.result?.structuredContent;
    // The stats call itself is the one request in flight.
    if (
      !counts ||
      counts.inflight !== 1 ||
      counts.pendingServerRequests !== 0 ||
      counts.connections !== 1
    ) {
      problem('wrong', `stdio counts before close: ${JSON.stringify(counts)}`);
    }
    this.child.stdin.end();
    const exit = await this.exited;
    if (exit.code !== 0) {
      figures.stdioExitFailures++;
      problem('wrong', `stdio app exited ${exit.code ?? exit.signal}`);
    }
  }
}

/** Runs sessions one after another until the deadline: each opens, operates, closes. */
async function worker(makeClient, deadline, seenConnIds, opsPerSession) {
  while (Date.now() < deadline) {
    const client = makeClient();
    await client.open();
    const ops = opsPerSession();
    for (let done = 0; done < ops && Date.now() < deadline;) {
      // One to three operations in flight at once on this session.
      const batch = Math.min(ops - done, 1 + Math.floor(Math.random() * 3));
      await Promise.all(
        Array.from({ length: batch }, () => client.operate(randomOperation(), seenConnIds)),
      );
      done += batch;
    }
    await client.close();
    if (figures.calls >= client.maxCalls) break;
  }
}

/** The environment of the fixture apps. */
let appEnv = {};

function spawnHttpApp() {
  const child = spawn(process.execPath, ['--expose-gc', HTTP_APP], {
    env: { ...process.env, ...appEnv, NODE_OPTIONS: '', PORT: '0' },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
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

async function stats(url, gc) {
  const response = await fetch(new URL(`/soak/stats${gc ? '?gc=1' : ''}`, url));
  return response.json();
}

const MB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const options = parseArgs(process.argv.slice(2));
  appEnv = { SOAK_ELICITATION_TIMEOUT_MS: String(options.elicitationTimeoutMs) };
  const app = spawnHttpApp();
  let exitCode = 1;
  try {
    const url = await app.url;
    if (new URL(url).hostname !== '127.0.0.1') throw new Error(`not loopback: ${url}`);
    say(
      `${options.short ? 'short' : 'long'} mode: ${options.durationMs} ms, ${options.sessions} HTTP workers, ` +
        `${options.stdio} stdio workers, at most ${options.maxCalls} calls, elicitation timeout ` +
        `${options.elicitationTimeoutMs} ms, against ${url}`,
    );
    const seenConnIds = new Map();
    const token = () => randomBytes(6).toString('hex');

    // Warm-up (not counted): a few sessions, so the baseline includes what the first calls allocate.
    const warmDeadline = Date.now() + Math.min(2_000, options.durationMs / 5);
    await Promise.all(
      Array.from({ length: 2 }, () =>
        worker(
          () => new HttpClient(url, token(), Infinity),
          warmDeadline,
          seenConnIds,
          () => 10,
        ),
      ),
    );
    Object.assign(figures, {
      httpSessions: 0,
      calls: 0,
      answered: 0,
      notifications: 0,
      elicitations: { approved: 0, declined: 0, timedOut: 0 },
    });
    const before = await stats(url, true);

    const started = Date.now();
    const deadline = started + options.durationMs;
    const maxCalls = options.maxCalls;
    await Promise.all([
      ...Array.from({ length: options.sessions }, () =>
        worker(
          () => new HttpClient(url, token(), maxCalls),
          deadline,
          seenConnIds,
          () => 5 + Math.floor(Math.random() * 25),
        ),
      ),
      ...Array.from({ length: options.stdio }, () =>
        worker(
          () => new StdioClient(token(), maxCalls),
          deadline,
          seenConnIds,
          () => 60,
        ),
      ),
    ]);
    const elapsedMs = Date.now() - started;
    const after = await stats(url, true);

    const leftovers = [
      'sessions',
      'bufferedEvents',
      'connections',
      'inflight',
      'pendingServerRequests',
    ].filter((key) => after[key] !== 0);
    const heapOk = after.heapUsed <= before.heapUsed + HEAP_SLACK_BYTES;
    const rssOk = after.rss <= before.rss * 1.5 + RSS_SLACK_BYTES;
    const report = {
      mode: options.short ? 'short' : 'long',
      elapsedMs,
      httpSessions: figures.httpSessions,
      stdioSessions: figures.stdioSessions,
      sessions: figures.httpSessions + figures.stdioSessions,
      calls: figures.calls,
      answered: figures.answered,
      lost: figures.lost,
      duplicated: figures.duplicated,
      crossed: figures.crossed,
      wrong: figures.wrong,
      notifications: figures.notifications,
      lostNotifications: figures.lostNotifications,
      elicitations: figures.elicitations,
      stdioExitFailures: figures.stdioExitFailures,
      before,
      after,
      leftovers,
      heapOk,
      rssOk,
      problems: figures.problems,
    };
    const ok =
      report.lost === 0 &&
      report.duplicated === 0 &&
      report.crossed === 0 &&
      report.wrong === 0 &&
      report.lostNotifications === 0 &&
      report.stdioExitFailures === 0 &&
      leftovers.length === 0 &&
      heapOk &&
      rssOk &&
      report.calls > 0;
    report.ok = ok;

    say(
      `${report.sessions} sessions (${report.httpSessions} HTTP, ${report.stdioSessions} stdio), ` +
        `${report.calls} calls in ${(elapsedMs / 1000).toFixed(1)} s, answered ${report.answered}, ` +
        `lost ${report.lost}, duplicated ${report.duplicated}, crossed ${report.crossed}, wrong ${report.wrong}`,
    );
    say(
      `elicitations approved ${figures.elicitations.approved}, declined ${figures.elicitations.declined}, ` +
        `timed out ${figures.elicitations.timedOut}; notifications ${report.notifications} ` +
        `(lost ${report.lostNotifications})`,
    );
    say(
      `RSS before ${MB(before.rss)}, after ${MB(after.rss)}; heap before ${MB(before.heapUsed)}, ` +
        `after ${MB(after.heapUsed)}; after the run: sessions ${after.sessions}, connections ` +
        `${after.connections}, in flight ${after.inflight}, pending server requests ` +
        `${after.pendingServerRequests}, buffered events ${after.bufferedEvents}`,
    );
    for (const line of figures.problems) say(`problem: ${line}`);
    say(ok ? 'PASS' : 'FAIL');
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    exitCode = ok ? 0 : 1;
  } catch (error) {
    say(`harness failure: ${error?.stack ?? error}`);
  } finally {
    if (app.child.exitCode === null) app.child.kill('SIGTERM');
    await app.exited;
  }
  process.exit(exitCode);
}

await main();
