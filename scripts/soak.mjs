#!/usr/bin/env node
// @ts-check
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
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { spawnHttpApp, stats } from './soak/apps.mjs';
import { figures, resetAfterWarmUp, say } from './soak/figures.mjs';
import { HttpClient } from './soak/http-client.mjs';
import { HEAP_SLACK_BYTES, RSS_SLACK_BYTES, parseArgs } from './soak/options.mjs';
import { StdioClient } from './soak/stdio-client.mjs';
import { worker } from './soak/worker.mjs';

/** @param {number} bytes */
const MB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const appEnv = { SOAK_ELICITATION_TIMEOUT_MS: String(options.elicitationTimeoutMs) };
  const app = spawnHttpApp(appEnv);
  let exitCode = 1;
  try {
    const url = await app.url;
    if (new URL(url).hostname !== '127.0.0.1') throw new Error(`not loopback: ${url}`);
    say(
      `${options.short ? 'short' : 'long'} mode: ${options.durationMs} ms, ${options.sessions} HTTP workers, ` +
        `${options.stdio} stdio workers, at most ${options.maxCalls} calls, elicitation timeout ` +
        `${options.elicitationTimeoutMs} ms, against ${url}`,
    );
    /** @type {Map<string, string>} */
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
    resetAfterWarmUp();
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
          () => new StdioClient(token(), maxCalls, appEnv),
          deadline,
          seenConnIds,
          () => 60,
        ),
      ),
    ]);
    const elapsedMs = Date.now() - started;
    const after = await stats(url, true);

    const leftovers = /** @type {const} */ ([
      'sessions',
      'bufferedEvents',
      'connections',
      'inflight',
      'pendingServerRequests',
    ]).filter((key) => after[key] !== 0);
    const heapOk = after.heapUsed <= before.heapUsed + HEAP_SLACK_BYTES;
    const rssOk = after.rss <= before.rss * 1.5 + RSS_SLACK_BYTES;
    const report = {
      ok: false,
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
    say(`harness failure: ${error instanceof Error ? error.stack : error}`);
  } finally {
    if (app.child.exitCode === null) app.child.kill('SIGTERM');
    await app.exited;
  }
  process.exit(exitCode);
}

await main();
