// @ts-check
// The soak's hostile clients, in a worker thread of their own (so their work never delays the
// honest clients' event loop, whose latency the soak measures). Until the deadline:
//   drippers   POST bodies as large as the server takes and feed them too slowly to finish, on
//              a live session (held until bodyTimeoutMs: 408; past a caller's share of
//              maxBufferedBodyBytes, a quarter: 429), from three addresses (three quarters of the
//              budget at most, so the honest clients always find room), or name a made-up session
//              (413: such a body may only be what an initialize needs)
//   flooders   initialize in a loop and never end a session (429 past maxSessionsPerPrincipal)
//   parkers    keep calls to `guarded` (the policy asks) in flight on sessions that declared
//              elicitation and never answer (the ask denies past maxPendingPerConnection and
//              maxPendingPerPrincipal; the parked ones end at elicitationTimeoutMs)
//   console and link drippers (in a second thread running this file with `role: 'console'`,
//              so the time to each answer is the server's and the machine's, not this thread's
//              queue)
//              POST to the operator console's decision and sign-out routes and to made-up
//              webhook links, without credentials, announcing 100 kB and trickling up to 99 kB
//              of it: each must be answered at once without its body being read (401 signed
//              out, 200 nothing to sign out of, 400 not a valid link), its connection closed,
//              none held
// Then, on the main thread's `finish`: saturation (held uploads from five more addresses until
// maxBufferedBodyBytes answers 503; sessions from more until maxSessions answers 503),
// every hostile session DELETEd, and the report posted back.
// Each kind has its own loopback address (127.0.0.2 and up), apart from the honest 127.0.0.1.
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { closeSession, destroyAgents, messagesOf, openSession, request } from './hostile-http.mjs';

/**
 * @typedef {object} HostileOptions
 * @property {string} url the MCP endpoint
 * @property {number} deadline epoch ms
 * @property {number} drippers
 * @property {number} bodyBytes the Content-Length a dripper announces (at most maxBodyBytes)
 * @property {number} parkSessions
 * @property {number} parkPerSession
 * @property {number} floodAddresses
 * @property {number} consoleDrippers
 * @property {string} consolePath where the app serves the operator console (links under it)
 * @property {number} unreadHoldMs how long a console or link POST waits for its answer, then for its close
 * @property {'console'} [role] set on the thread that runs the console and link drippers only
 */

const PARK_ADDRESS = '127.0.0.2';
/** Three callers: together at most three quarters of the body budget (a quarter each). */
const DRIP_ADDRESSES = ['127.0.0.3', '127.0.0.4', '127.0.0.5'];
/** Flooders use 127.0.0.10 and up; session saturation 127.0.0.100 and up; body saturation 127.0.0.200 and up. */
const floodAddress = (/** @type {number} */ n) => `127.0.0.${10 + n}`;
/** A flooder's attempts at most: ten times the default maxSessionsPerPrincipal (100). */
const FLOOD_MAX_ATTEMPTS = 1_000;
const saturateAddress = (/** @type {number} */ n) => `127.0.0.${100 + n}`;
const bodySaturateAddress = (/** @type {number} */ n) => `127.0.0.${200 + n}`;
/** Console drippers (decisions, sign-outs) on one address, link drippers on another. */
const CONSOLE_DRIP_ADDRESS = '127.0.0.6';
const LINK_DRIP_ADDRESS = '127.0.0.7';
/** What a console or link dripper announces, and the most it sends (issue 24's 99 kB of 100 kB). */
const FORM_DRIP_BYTES = 100 * 1024;
const FORM_DRIP_MAX_SENT = 99 * 1024;
/** A console or link dripper's attempts at most. */
const FORM_DRIP_MAX_ATTEMPTS = 500;
/**
 * The console and link drippers' routes, what each is answered without credentials, and from
 * which address. `origin` sends the console's own Origin (half of what gets a body read: the
 * session cookie is missing).
 */
const FORM_ROUTES = /** @type {const} */ ([
  { route: 'decision', expect: 401, address: CONSOLE_DRIP_ADDRESS, origin: false },
  { route: 'decision-origin', expect: 401, address: CONSOLE_DRIP_ADDRESS, origin: true },
  { route: 'logout', expect: 200, address: CONSOLE_DRIP_ADDRESS, origin: false },
  { route: 'link', expect: 400, address: LINK_DRIP_ADDRESS, origin: false },
]);

/** How long a hostile client waits after a refusal before it tries again. */
const REFUSED_PAUSE_MS = 100;

/** @param {Record<string, number>} counts @param {string | number} key */
const bump = (counts, key) => (counts[key] = (counts[key] ?? 0) + 1);

const report = {
  drip: { requests: 0, bytesSent: 0, statuses: /** @type {Record<string, number>} */ ({}) },
  flood: { opened: 0, statuses: /** @type {Record<string, number>} */ ({}), rateLimited: 0 },
  park: {
    calls: 0,
    parked: 0,
    timedOut: 0,
    refusedPending: 0,
    rateLimited: 0,
    other: 0,
    statuses: /** @type {Record<string, number>} */ ({}),
  },
  saturate: { opened: 0, statuses: /** @type {Record<string, number>} */ ({}) },
  saturateBodies: { uploads: 0, statuses: /** @type {Record<string, number>} */ ({}) },
  consoleDrip: {
    /** GET <console path> before the leg: 303 (to the sign-in) when the console is mounted. */
    mountedStatus: 0,
    requests: 0,
    bytesSent: 0,
    /** Statuses by route (`decision`, `decision-origin`, `logout`, `link`). */
    statuses: /** @type {Record<string, Record<string, number>>} */ ({}),
    /** Answered with a status other than its route's (or cut without one). */
    unexpected: 0,
    /** Neither answered nor closed by the server within unreadHoldMs. */
    held: 0,
    /** Closed by the server within unreadHoldMs of its answer; left open past it. */
    closed: 0,
    leftOpen: 0,
    /** Ms from the request's start to the answer's status line, and from that to the close. */
    answerMs: /** @type {number[]} */ ([]),
    closeMs: /** @type {number[]} */ ([]),
  },
  closed: 0,
  closeFailures: 0,
  /** @type {string[]} */
  notes: [],
};

/** @type {{ address: string, sessionId: string }[]} */
const sessions = [];

/** @param {string} line */
function note(line) {
  if (report.notes.length < 20) report.notes.push(line);
}

/**
 * One slow upload: announces `length` bytes (or chunked, when undefined), writes `burst` bytes at
 * once, then a trickle every `everyMs`, until the server answers or the deadline passes.
 * @param {URL} url
 * @param {{ localAddress: string, sessionId: string, length?: number, burst: number, trickle: number, everyMs: number, deadline: number }} plan
 * @returns {Promise<number>} the status, or 0 when the upload was cut at the deadline
 */
function dripOnce(url, { localAddress, sessionId, length, burst, trickle, everyMs, deadline }) {
  return new Promise((resolve) => {
    let sent = 0;
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    let settled = false;
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      agent: false,
      localAddress,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        ...(length === undefined ? {} : { 'content-length': String(length) }),
      },
    });
    /** @param {number} status */
    const done = (status) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      report.drip.bytesSent += sent;
      req.destroy();
      resolve(status);
    };
    req.once('response', (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.once('error', () => done(0));
    /** @param {number} bytes */
    const write = (bytes) => {
      const room = length === undefined ? bytes : Math.min(bytes, length - 1 - sent);
      if (room <= 0) return; // never the last byte: the body must not complete
      sent += room;
      req.write(Buffer.alloc(room, 0x20));
    };
    const tick = () => {
      if (settled) return;
      if (Date.now() >= deadline) return done(0);
      write(trickle);
      timer = setTimeout(tick, everyMs);
    };
    write(burst);
    timer = setTimeout(tick, everyMs);
  });
}

/**
 * @param {URL} url
 * @param {HostileOptions} options
 * @param {{ address: string, sessionId: string }[]} dripSessions one per drip address
 * @param {number} n this dripper's number (its address and its kind of upload)
 */
async function dripper(url, options, dripSessions, n) {
  const kinds = ['budget', 'budget', 'budget', 'unknown-declared', 'unknown-chunked'];
  const kind = kinds[n % kinds.length];
  const { address, sessionId: liveSession } = dripSessions[n % dripSessions.length];
  while (Date.now() < options.deadline) {
    report.drip.requests++;
    const status = await dripOnce(
      url,
      kind === 'budget'
        ? {
            localAddress: address,
            sessionId: liveSession,
            length: options.bodyBytes,
            // Nearly all of it at once: held, it weighs on the shared budget for bodyTimeoutMs.
            burst: options.bodyBytes - 64 * 1024,
            trickle: 1024,
            everyMs: 250,
            deadline: options.deadline,
          }
        : {
            localAddress: address,
            sessionId: `made-up-${n}`,
            length: kind === 'unknown-declared' ? options.bodyBytes : undefined,
            burst: 16 * 1024,
            trickle: 16 * 1024,
            everyMs: 20,
            deadline: options.deadline,
          },
    );
    if (status === 0) break; // cut at the deadline
    bump(report.drip.statuses, status);
    // Not a busy loop: a refused upload starts again a moment later (the soak measures what the
    // server's bounds do to the honest clients, not how fast a client can burn a core).
    await sleep(REFUSED_PAUSE_MS);
  }
}

/**
 * One console or link POST without credentials on a raw socket: the head announcing
 * FORM_DRIP_BYTES, 16 KiB at once, then 1 KiB every 100 ms up to FORM_DRIP_MAX_SENT (never the
 * whole body), until the server closes the connection, `closeWaitMs` pass after its answer, or
 * `deadline` passes without an answer.
 * @param {URL} url
 * @param {{ localAddress: string, path: string, headers: Record<string, string>, closeWaitMs: number, deadline: number }} plan
 * @returns {Promise<{ status: number, answerMs?: number, closeMs?: number, closedByServer: boolean }>}
 *   status 0: no answer
 */
function formDripOnce(url, { localAddress, path, headers, closeWaitMs, deadline }) {
  return new Promise((resolve) => {
    const started = performance.now();
    /** @type {number | undefined} */
    let answeredAt;
    let status = 0;
    let sent = 0;
    let settled = false;
    let head = '';
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    /** @type {NodeJS.Timeout | undefined} */
    let closeTimer;
    const socket = net.connect({ host: url.hostname, port: Number(url.port), localAddress });
    /** @param {boolean} closedByServer */
    const done = (closedByServer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(closeTimer);
      report.consoleDrip.bytesSent += sent;
      socket.destroy();
      resolve({
        status,
        answerMs: answeredAt === undefined ? undefined : answeredAt - started,
        closeMs:
          closedByServer && answeredAt !== undefined ? performance.now() - answeredAt : undefined,
        closedByServer,
      });
    };
    // Writing on after the server's answer may meet its close (EPIPE, ECONNRESET): that is the point.
    socket.on('error', () => done(true));
    socket.once('end', () => done(true));
    socket.once('close', () => done(true));
    socket.setEncoding('latin1');
    socket.on('data', (/** @type {string} */ chunk) => {
      if (answeredAt !== undefined) return;
      head += chunk;
      const match = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (!match) return;
      status = Number(match[1]);
      answeredAt = performance.now();
      closeTimer = setTimeout(() => done(false), closeWaitMs);
    });
    /** @param {number} bytes */
    const write = (bytes) => {
      const room = Math.min(bytes, FORM_DRIP_MAX_SENT - sent);
      if (room <= 0 || socket.destroyed) return;
      sent += room;
      socket.write(Buffer.alloc(room, 0x61));
    };
    const tick = () => {
      if (settled) return;
      // Once answered, the wait for the close bounds the upload (not the deadline).
      if (answeredAt === undefined && Date.now() >= deadline) return done(false);
      write(1024);
      timer = setTimeout(tick, 100);
    };
    socket.write(
      [
        `POST ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        `Content-Length: ${FORM_DRIP_BYTES}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        '',
        '',
      ].join('\r\n'),
    );
    write(16 * 1024);
    timer = setTimeout(tick, 100);
  });
}

/**
 * A console or link dripper: its route's POSTs, one after another, until the deadline or
 * FORM_DRIP_MAX_ATTEMPTS. Each waits unreadHoldMs for its answer (so one started just
 * before the deadline is not taken for held), then as long for the close. It stops at the first
 * one held (one is enough to fail the check, and the others would be held the same way).
 * @param {URL} url
 * @param {HostileOptions} options
 * @param {number} n this dripper's number (its route)
 */
async function formDripper(url, options, n) {
  const { route, expect, address, origin } = FORM_ROUTES[n % FORM_ROUTES.length];
  const figures = report.consoleDrip;
  const statuses = (figures.statuses[route] ??= {});
  const consolePath = options.consolePath;
  for (
    let attempt = 0;
    attempt < FORM_DRIP_MAX_ATTEMPTS && Date.now() < options.deadline;
    attempt++
  ) {
    const path =
      route === 'link'
        ? `${consolePath}/link/made-up-${n}-${attempt}`
        : route === 'logout'
          ? `${consolePath}/logout`
          : `${consolePath}/asks/made-up-${n}-${attempt}/decision`;
    const form = route === 'link' || route === 'logout';
    figures.requests++;
    const outcome = await formDripOnce(url, {
      localAddress: address,
      path,
      headers: {
        'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        ...(origin ? { Origin: url.origin } : {}),
      },
      closeWaitMs: options.unreadHoldMs,
      deadline: Date.now() + options.unreadHoldMs,
    });
    bump(statuses, outcome.status);
    if (outcome.answerMs !== undefined) figures.answerMs.push(outcome.answerMs);
    if (outcome.status !== expect) {
      figures.unexpected++;
      if (outcome.status !== 0) note(`${route} drip: HTTP ${outcome.status}, not ${expect}`);
    }
    if (outcome.status === 0 && !outcome.closedByServer) {
      figures.held++;
      break;
    }
    if (outcome.closeMs !== undefined) {
      figures.closed++;
      figures.closeMs.push(outcome.closeMs);
    } else if (outcome.status !== 0) {
      figures.leftOpen++;
      note(`${route} drip: HTTP ${outcome.status}, connection left open`);
    }
    await sleep(REFUSED_PAUSE_MS);
  }
}

/** GET <console path>: 303 to the sign-in when the console is mounted (a 404 when it is not). */
async function consoleMounted(/** @type {URL} */ url, /** @type {string} */ consolePath) {
  const answer = await request(new URL(consolePath, url), {
    localAddress: CONSOLE_DRIP_ADDRESS,
    method: 'GET',
    timeoutMs: 10_000,
  });
  return answer.status;
}

/**
 * @param {URL} url
 * @param {HostileOptions} options
 * @param {number} n
 */
async function flooder(url, options, n) {
  const address = floodAddress(n);
  // Past the deadline, a flooder that has not met its bound yet goes on until it does (a slow
  // machine opens fewer sessions in the same time), up to FLOOD_MAX_ATTEMPTS in all.
  let refused = false;
  for (
    let attempts = 0;
    attempts < FLOOD_MAX_ATTEMPTS && (Date.now() < options.deadline || !refused);
    attempts++
  ) {
    const { sessionId, status, retryAfter } = await openSession(url, address);
    bump(report.flood.statuses, status);
    if (status === 429) refused = true;
    if (sessionId) {
      report.flood.opened++;
      sessions.push({ address, sessionId });
    } else {
      if (retryAfter) report.flood.rateLimited++;
      await sleep(REFUSED_PAUSE_MS);
    }
  }
}

/**
 * One session's parked calls: `parkPerSession` loops, each a guarded call after another.
 * @param {URL} url
 * @param {HostileOptions} options
 * @param {string} sessionId
 */
async function parker(url, options, sessionId) {
  let next = 1;
  const loop = async () => {
    while (Date.now() < options.deadline) {
      const id = next++;
      report.park.calls++;
      const answer = await request(url, {
        localAddress: PARK_ADDRESS,
        headers: { 'mcp-session-id': sessionId },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'guarded', arguments: { token: 'hostile', text: `park-${id}` } },
        }),
        timeoutMs: 20_000,
      });
      bump(report.park.statuses, answer.status);
      const messages = messagesOf(answer);
      if (messages.some((m) => m.method === 'elicitation/create')) report.park.parked++;
      const result = messages.find((m) => m.id === id && m.method === undefined)?.result;
      const detail = String(result?.structuredContent?.detail ?? result?.content?.[0]?.text ?? '');
      if (detail.includes('too many calls awaiting approval')) {
        report.park.refusedPending++;
        await sleep(REFUSED_PAUSE_MS);
      } else if (detail.includes('elicitation timed out')) {
        report.park.timedOut++;
      } else if (answer.status === 429) {
        report.park.rateLimited++;
        await sleep(REFUSED_PAUSE_MS);
      } else {
        report.park.other++;
        note(`park: HTTP ${answer.status} ${answer.error ?? answer.body.slice(0, 200)}`);
        await sleep(REFUSED_PAUSE_MS);
      }
    }
  };
  await Promise.all(Array.from({ length: options.parkPerSession }, loop));
}

/**
 * After the honest clients are done: sessions from fresh addresses (each up to its quota) until
 * the server's maxSessions answers 503 a few times.
 * @param {URL} url
 */
async function saturate(url) {
  let refusals = 0;
  for (let n = 0; n < 100 && refusals < 5; n++) {
    const address = saturateAddress(n);
    for (;;) {
      const { sessionId, status } = await openSession(url, address);
      bump(report.saturate.statuses, status);
      if (sessionId) {
        report.saturate.opened++;
        sessions.push({ address, sessionId });
        continue;
      }
      if (status === 503) refusals++;
      break; // 429: this address has its quota; 503: the server is full
    }
  }
}

/**
 * After the honest clients are done: five more callers each hold uploads up to their share of
 * the body budget (four bodies just under maxBodyBytes), together more than the whole budget,
 * until it answers 503 (or two seconds pass); then every upload is cut.
 * @param {URL} url
 * @param {HostileOptions} options
 */
async function saturateBodies(url, options) {
  const deadline = Date.now() + 2_000;
  const uploads = [];
  for (let n = 0; n < 5; n++) {
    const address = bodySaturateAddress(n);
    const { sessionId } = await openSession(url, address);
    if (!sessionId) {
      note(`body saturation session: refused`);
      continue;
    }
    sessions.push({ address, sessionId });
    for (let k = 0; k < 4; k++) {
      report.saturateBodies.uploads++;
      uploads.push(
        dripOnce(url, {
          localAddress: address,
          sessionId,
          length: options.bodyBytes,
          burst: options.bodyBytes - 64 * 1024,
          trickle: 0,
          everyMs: 100,
          deadline,
        }).then((status) => bump(report.saturateBodies.statuses, status)),
      );
    }
  }
  await Promise.all(uploads);
}

/** The console and link drippers' thread: its leg, then its figures (no session to end). */
async function consoleMain(/** @type {HostileOptions} */ options) {
  const url = new URL(options.url);
  report.consoleDrip.mountedStatus = await consoleMounted(url, options.consolePath);
  await Promise.all(
    Array.from({ length: options.consoleDrippers }, (_, n) => formDripper(url, options, n)),
  );
  destroyAgents();
  parentPort?.postMessage({
    type: 'report',
    report: { consoleDrip: report.consoleDrip, notes: report.notes },
  });
}

async function main() {
  /** @type {HostileOptions} */
  const options = workerData;
  if (options.role === 'console') return consoleMain(options);
  const url = new URL(options.url);
  const finish = new Promise((resolve) => parentPort?.once('message', resolve));

  /** @type {{ address: string, sessionId: string }[]} */
  const dripSessions = [];
  for (const address of DRIP_ADDRESSES) {
    const opened = await openSession(url, address);
    if (opened.sessionId) dripSessions.push({ address, sessionId: opened.sessionId });
    else note(`drip session: HTTP ${opened.status}`);
  }
  const parkSessions = [];
  for (let n = 0; n < options.parkSessions; n++) {
    const opened = await openSession(url, PARK_ADDRESS, { elicitation: {} });
    if (opened.sessionId) parkSessions.push(opened.sessionId);
    else note(`park session: HTTP ${opened.status}`);
  }
  sessions.push(
    ...dripSessions,
    ...parkSessions.map((sessionId) => ({ address: PARK_ADDRESS, sessionId })),
  );

  await Promise.all([
    ...(dripSessions.length > 0
      ? Array.from({ length: options.drippers }, (_, n) => dripper(url, options, dripSessions, n))
      : []),
    ...Array.from({ length: options.floodAddresses }, (_, n) => flooder(url, options, n)),
    ...parkSessions.map((sessionId) => parker(url, options, sessionId)),
  ]);
  parentPort?.postMessage({ type: 'legs-done' });

  await finish;
  // Bodies first: once maxSessions is full, no session could be opened to hold them on.
  await saturateBodies(url, options);
  await saturate(url);
  // Every hostile session ends (its parked calls with it), a few at a time.
  for (let at = 0; at < sessions.length; at += 32) {
    const statuses = await Promise.all(
      sessions
        .slice(at, at + 32)
        .map(({ address, sessionId }) => closeSession(url, address, sessionId)),
    );
    for (const status of statuses) {
      if (status === 200) report.closed++;
      else {
        report.closeFailures++;
        note(`DELETE: HTTP ${status}`);
      }
    }
  }
  destroyAgents();
  parentPort?.postMessage({ type: 'report', report });
}

main().catch((error) => {
  parentPort?.postMessage({
    type: 'failed',
    error: error instanceof Error ? error.stack : String(error),
  });
});
