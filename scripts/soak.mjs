#!/usr/bin/env node
// @ts-check
/*
 * Soak test: many concurrent MCP sessions over Streamable HTTP, plus stdio
 * clients, against the soak fixture app (test/fixtures/soak), bounded in time
 * and in calls, on loopback only.
 *
 *   node scripts/soak.mjs [--short] [--duration-ms N] [--sessions N] [--stdio N]
 *                         [--max-calls N] [--elicitation-timeout-ms N] [--json]
 *                         [--hostile [--body-timeout-ms N] [--drippers N] [--park-sessions N]
 *                                    [--park-per-session N] [--flood-addresses N]
 *                                    [--console-drippers N]]
 *                         [--cluster]
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
 * Hostile mode (--hostile): beside the honest clients, for the same time, hostile clients in a
 * worker thread (scripts/soak/hostile-worker.mjs), each kind on a loopback address of its own
 * (127.0.0.2 and up, so the per-address quotas of anonymous callers keep them apart from the
 * honest 127.0.0.1): drippers on three addresses feed bodies of up to maxBodyBytes too slowly to
 * finish (408 at the app's bodyTimeoutMs, lowered to a quarter of the run; 429 past a caller's
 * share of maxBufferedBodyBytes; 413 for a made-up session), flooders initialize in a loop (429
 * past maxSessionsPerPrincipal), parkers keep hundreds of `guarded` calls awaiting an approval
 * that never comes (denied past maxPendingPerConnection / maxPendingPerPrincipal), console and
 * link drippers (127.0.0.6-7) POST to the operator console's decision and sign-out routes and to
 * made-up webhook links without credentials, announcing 100 kB and trickling up to 99 kB of it
 * (issue 24, finding 2: such uploads held their sockets). Once the
 * honest clients are done, more addresses open sessions until maxSessions answers 503 and hold
 * uploads until maxBufferedBodyBytes answers 503, then every hostile session is ended.
 * Extra checks: every defence above was reached, every hostile session ended cleanly, the console
 * is mounted (GET → 303) and every console or link POST was answered without its body being read
 * (401 decision, 200 sign-out, 400 link; a 408, a 413 or a 429 would mean it was read), none held
 * past 15 s (the honest calls' own bound), and its connection closed after the answer; and
 * (long mode only) the latency probe's honest calls have a p99 below 50 ms and every console or
 * link answer came before bodyTimeoutMs. A short run reports that
 * p99 without judging it: `npm run bench` judges it (bench/workloads/soak-hostile.mjs), since a
 * latency bound depends on the machine.
 *
 * Cluster mode (--cluster; scripts/soak/cluster.mjs): three notes-service instances in cluster
 * mode on REDIS_URL (default redis://127.0.0.1:6379) and one PostgreSQL schema of their own on
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), behind the round-robin proxy;
 * --sessions writers and as many readers (6 short, 12 long) for the run's duration; one instance
 * is killed with SIGKILL halfway. Checks: 0 acknowledged writes lost, 0 crossed responses, every
 * call ended with a response or an error, writes acknowledged after the kill.
 *
 * Prints the figures on stderr (and, with --json, one JSON line on stdout); exits 1 on any
 * failed check. Requires `npm run build` (the fixture runs on dist/).
 */
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { spawnHttpApp, stats } from './soak/apps.mjs';
import { figures, resetAfterWarmUp, say, summary } from './soak/figures.mjs';
import { startHostile, startProbe } from './soak/hostile.mjs';
import { Client } from './soak/client.mjs';
import { HttpClient } from './soak/http-client.mjs';
import {
  CONSOLE_PATH,
  HEAP_SLACK_BYTES,
  HONEST_P99_MS,
  MAX_BODY_BYTES,
  RSS_SLACK_BYTES,
  UNREAD_HOLD_MS,
  parseArgs,
} from './soak/options.mjs';
import { runClusterSoak } from './soak/cluster.mjs';
import { StdioClient } from './soak/stdio-client.mjs';
import { worker } from './soak/worker.mjs';

/** @param {number} bytes */
const MB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (process.argv.includes('--cluster')) {
    const explicit = process.argv.includes('--sessions') || process.env.SOAK_SESSIONS;
    process.exit(
      await runClusterSoak({
        durationMs: options.durationMs,
        sessions: explicit ? options.sessions : options.short ? 6 : 12,
        json: options.json,
        redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      }),
    );
  }
  const appEnv = { SOAK_ELICITATION_TIMEOUT_MS: String(options.elicitationTimeoutMs) };
  Client.elicitationTimeoutMs = options.elicitationTimeoutMs;
  const app = spawnHttpApp(
    options.hostile
      ? { ...appEnv, SOAK_LIMITS: JSON.stringify({ bodyTimeoutMs: options.bodyTimeoutMs }) }
      : appEnv,
  );
  let exitCode = 1;
  try {
    const url = await app.url;
    if (new URL(url).hostname !== '127.0.0.1') throw new Error(`not loopback: ${url}`);
    say(
      `${options.short ? 'short' : 'long'}${options.hostile ? ' hostile' : ''} mode: ${options.durationMs} ms, ${options.sessions} HTTP workers, ` +
        `${options.stdio} stdio workers, at most ${options.maxCalls} calls, elicitation timeout ` +
        `${options.elicitationTimeoutMs} ms, against ${url}`,
    );
    if (options.hostile) {
      say(
        `hostile: ${options.drippers} drippers (127.0.0.3-5), ${options.parkSessions} × ` +
          `${options.parkPerSession} parked calls (127.0.0.2), ${options.floodAddresses} session ` +
          `flooders (127.0.0.10+), ${options.consoleDrippers} console and link drippers ` +
          `(127.0.0.6-7), then saturation (sessions 127.0.0.100+, bodies 127.0.0.200+); ` +
          `bodyTimeoutMs ${options.bodyTimeoutMs}`,
      );
    }
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
    const hostile = options.hostile
      ? startHostile({
          url,
          deadline,
          drippers: options.drippers,
          bodyBytes: MAX_BODY_BYTES,
          parkSessions: options.parkSessions,
          parkPerSession: options.parkPerSession,
          floodAddresses: options.floodAddresses,
          consoleDrippers: options.consoleDrippers,
          consolePath: CONSOLE_PATH,
          unreadHoldMs: UNREAD_HOLD_MS,
        })
      : undefined;
    // The latency probe: one honest call at a time from a thread of its own (see probe-worker.mjs).
    const probe = startProbe({ url, deadline, pauseMs: 2 });
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
    const probeReport = await probe;
    await hostile?.legsDone;
    const hostileReport = await hostile?.finish();
    const after = await stats(url, true);

    const leftovers = /** @type {const} */ ([
      'sessions',
      'bufferedEvents',
      'connections',
      'inflight',
      'pendingServerRequests',
    ]).filter((key) => after[key] !== 0);
    const heapOk = after.heapUsed <= before.heapUsed + HEAP_SLACK_BYTES;
    // Hostile mode streams hundreds of MB of bodies through Buffers whose pages the allocator
    // keeps (more so on newer Node): RSS says nothing of leaks there; the heap check still does.
    const rssOk = options.hostile || after.rss <= before.rss * 1.5 + RSS_SLACK_BYTES;
    const latency = {
      http: {
        fast: summary(figures.latency.http.fast),
        slow: summary(figures.latency.http.slow),
        guarded: summary(figures.latency.http.guarded),
      },
      stdio: {
        fast: summary(figures.latency.stdio.fast),
        slow: summary(figures.latency.stdio.slow),
        guarded: summary(figures.latency.stdio.guarded),
      },
    };
    const drip = hostileReport?.consoleDrip;
    const consoleDrip = drip && {
      ...drip,
      answerMs: summary(drip.answerMs),
      closeMs: summary(drip.closeMs),
    };
    // Each defence the hostile clients were there to meet, met at least once.
    const reached = hostileReport && {
      bodyTimeout408: (hostileReport.drip.statuses[408] ?? 0) > 0,
      bodyShare429: (hostileReport.drip.statuses[429] ?? 0) > 0,
      bodyBudget503: (hostileReport.saturateBodies.statuses[503] ?? 0) > 0,
      unknownSession413: (hostileReport.drip.statuses[413] ?? 0) > 0,
      sessionsPerCaller429: (hostileReport.flood.statuses[429] ?? 0) > 0,
      maxSessions503: (hostileReport.saturate.statuses[503] ?? 0) > 0,
      pendingRefused: hostileReport.park.refusedPending > 0,
      parked: hostileReport.park.parked > 0,
      consoleUnread401:
        (hostileReport.consoleDrip.statuses.decision?.[401] ?? 0) > 0 &&
        (hostileReport.consoleDrip.statuses['decision-origin']?.[401] ?? 0) > 0,
      linkUnread400: (hostileReport.consoleDrip.statuses.link?.[400] ?? 0) > 0,
    };
    // The console's and the links' POSTs without credentials, every one: answered as their route
    // answers such a request, without the body being read, none held, and closed after it.
    const consoleChecks = consoleDrip && {
      mounted: consoleDrip.mountedStatus === 303,
      answeredAsExpected: consoleDrip.requests > 0 && consoleDrip.unexpected === 0,
      noneHeld: consoleDrip.held === 0,
      closedAfterAnswer: consoleDrip.closed === consoleDrip.requests && consoleDrip.leftOpen === 0,
    };
    // How soon they were answered depends on the machine, like the probe's p99: judged in long
    // mode (against the body deadline: such an answer never waits for the body), reported here.
    const consoleAnswerOk = !consoleDrip || consoleDrip.answerMs.max < options.bodyTimeoutMs;
    const probed = { ...probeReport, latency: summary(probeReport.samples), samples: undefined };
    const probeOk = probed.lost === 0 && probed.wrong === 0 && probed.answered > 0;
    const honestP99Ok = !options.hostile || probed.latency.p99 < HONEST_P99_MS;
    const hostileOk =
      !hostileReport ||
      (Object.values(reached ?? {}).every(Boolean) &&
        Object.values(consoleChecks ?? {}).every(Boolean) &&
        hostileReport.closeFailures === 0);
    // The server's event loop over the run (the stats before it started a new window).
    const serverLoop = { maxMs: after.loopMaxMs, p99Ms: after.loopP99Ms };
    const report = {
      ok: false,
      mode: `${options.short ? 'short' : 'long'}${options.hostile ? ' hostile' : ''}`,
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
      latency,
      probe: probed,
      probeOk,
      serverLoop,
      hostile: hostileReport && { ...hostileReport, consoleDrip, reached, consoleChecks },
      honestP99Ok,
      consoleAnswerOk,
      hostileOk,
      problems: figures.problems,
    };
    // A latency bound depends on the machine: the short run (the test's) reports the p99 and the
    // bench judges it (bench/workloads/soak-hostile.mjs); the long run judges it itself.
    const ok =
      probeOk &&
      (options.short || honestP99Ok) &&
      (options.short || consoleAnswerOk) &&
      hostileOk &&
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
        `timed out ${figures.elicitations.timedOut}, approvals acknowledged too late to count ` +
        `${figures.elicitations.late}; notifications ${report.notifications} ` +
        `(lost ${report.lostNotifications})`,
    );
    say(
      `RSS before ${MB(before.rss)}, after ${MB(after.rss)}; heap before ${MB(before.heapUsed)}, ` +
        `after ${MB(after.heapUsed)}; after the run: sessions ${after.sessions}, connections ` +
        `${after.connections}, in flight ${after.inflight}, pending server requests ` +
        `${after.pendingServerRequests}, buffered events ${after.bufferedEvents}`,
    );
    const ms = (/** @type {{ p50: number, p99: number, max: number, count: number }} */ l) =>
      `p50 ${l.p50} / p99 ${l.p99} / max ${l.max} ms (${l.count})`;
    say(
      `HTTP round trips: echo/read/ping/touch ${ms(latency.http.fast)}; slow_echo beyond its ` +
        `delay ${ms(latency.http.slow)}; guarded ${ms(latency.http.guarded)}; the server's ` +
        `event loop: longest delay ${serverLoop.maxMs.toFixed(0)} ms, p99 ${serverLoop.p99Ms.toFixed(0)} ms`,
    );
    say(
      `latency probe (one honest call at a time, its own thread): ${ms(probed.latency)}; ` +
        `calls ${probed.calls}, answered ${probed.answered}, lost ${probed.lost}, wrong ${probed.wrong}`,
    );
    for (const line of probed.problems) say(`probe problem: ${line}`);
    if (hostileReport) {
      const h = hostileReport;
      say(
        `hostile: drips ${h.drip.requests} (${(h.drip.bytesSent / 1024 / 1024).toFixed(0)} MB sent) ` +
          `→ ${JSON.stringify(h.drip.statuses)}; floods opened ${h.flood.opened} → ` +
          `${JSON.stringify(h.flood.statuses)} (rate-limited ${h.flood.rateLimited}); parked calls ` +
          `${h.park.calls}: parked ${h.park.parked}, timed out ${h.park.timedOut}, refused ` +
          `${h.park.refusedPending}, rate-limited ${h.park.rateLimited}, other ${h.park.other}; saturation opened ${h.saturate.opened} → ` +
          `${JSON.stringify(h.saturate.statuses)}; body saturation ${h.saturateBodies.uploads} uploads → ` +
          `${JSON.stringify(h.saturateBodies.statuses)} (0: cut by the client); sessions ended ${h.closed} (failures ${h.closeFailures})`,
      );
      if (consoleDrip) {
        say(
          `console and link drips ${consoleDrip.requests} (${(consoleDrip.bytesSent / 1024 / 1024).toFixed(0)} MB sent) ` +
            `→ ${JSON.stringify(consoleDrip.statuses)} (0: no answer; unexpected ${consoleDrip.unexpected}); ` +
            `answered in ${ms(consoleDrip.answerMs)} (body deadline ${options.bodyTimeoutMs} ms); closed after the ` +
            `answer ${consoleDrip.closed} in ${ms(consoleDrip.closeMs)}, left open ${consoleDrip.leftOpen}; ` +
            `held ${consoleDrip.held}; console GET → ${consoleDrip.mountedStatus}`,
        );
        say(`console and link checks: ${JSON.stringify(consoleChecks)}`);
      }
      say(`hostile defences reached: ${JSON.stringify(reached)}`);
      if (!honestP99Ok) {
        say(
          `honest probe p99 ${probed.latency.p99} ms is not below ${HONEST_P99_MS} ms` +
            (options.short ? ' (reported; judged in long mode and by the bench)' : ''),
        );
      }
      if (!consoleAnswerOk) {
        say(
          `a console or link answer took ${consoleDrip?.answerMs.max} ms, not below the body ` +
            `deadline ${options.bodyTimeoutMs} ms` +
            (options.short ? ' (reported; judged in long mode)' : ''),
        );
      }
      for (const line of h.notes) say(`hostile note: ${line}`);
    }
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
