// @ts-check
import process from 'node:process';

/** A call with no answer after this long is lost. */
export const CALL_TIMEOUT_MS = 15_000;
/** How long a notification may take to arrive after the call that caused it was answered. */
export const NOTIFY_TIMEOUT_MS = 5_000;
/** After the run, heap may exceed the baseline by this much (it is measured after a full GC). */
export const HEAP_SLACK_BYTES = 16 * 1024 * 1024;
/** RSS may exceed the baseline by 50 % plus this (the allocator keeps pages it has touched). */
export const RSS_SLACK_BYTES = 48 * 1024 * 1024;

/**
 * @typedef {object} SoakOptions
 * @property {boolean} short
 * @property {boolean} json
 * @property {number} durationMs
 * @property {number} sessions
 * @property {number} stdio
 * @property {number} maxCalls
 * @property {number} elicitationTimeoutMs
 * @property {boolean} hostile
 * @property {number} bodyTimeoutMs the app's limits.bodyTimeoutMs in hostile mode
 * @property {number} drippers
 * @property {number} parkSessions
 * @property {number} parkPerSession
 * @property {number} floodAddresses
 * @property {number} consoleDrippers
 */

/** Hostile mode: the honest clients' call latency p99 must stay below this. */
export const HONEST_P99_MS = 50;
/** limits.maxBodyBytes (the default): what a dripper announces. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Where the soak app serves the operator console (SOAK_CONSOLE_PATH in test/fixtures/soak/soak-app.mjs). */
export const CONSOLE_PATH = '/approvals';

/**
 * Hostile mode: how long a console or link POST without credentials waits for its answer, and
 * then for the server to close its connection, before it counts as held: as long as an honest
 * call waits before it counts as lost (CALL_TIMEOUT_MS). Such an answer needs no body and comes
 * in milliseconds on a quiet machine; beside the other hostile clients on a loaded one, honest
 * calls and these answers alike have been seen to take several seconds. A route that left such a
 * body to the app's body parser held its socket for minutes.
 */
export const UNREAD_HOLD_MS = CALL_TIMEOUT_MS;

/**
 * The run's options: flags first, then the SOAK_* environment, then the mode's defaults.
 * @param {string[]} argv
 * @returns {SoakOptions}
 */
export function parseArgs(argv) {
  const short = argv.includes('--short');
  /**
   * @param {string} flag
   * @param {string} env
   * @param {number} fallback
   */
  const value = (flag, env, fallback, min = 1) => {
    const at = argv.indexOf(flag);
    const raw = at === -1 ? process.env[env] : argv[at + 1];
    const number = Number(raw);
    return raw !== undefined && Number.isInteger(number) && number >= min ? number : fallback;
  };
  const durationMs = value('--duration-ms', 'SOAK_DURATION_MS', short ? 10_000 : 60_000);
  const hostile = argv.includes('--hostile');
  return {
    short,
    json: argv.includes('--json'),
    durationMs,
    sessions: value('--sessions', 'SOAK_SESSIONS', short ? 8 : 50, 0),
    stdio: value('--stdio', 'SOAK_STDIO', short ? 1 : 2, 0),
    maxCalls: value('--max-calls', 'SOAK_MAX_CALLS', short ? 20_000 : 500_000),
    // Long enough that an approval sent at once is never beaten by the timeout on a loaded
    // machine; the "ignore" elicitations wait it out. Beside the hostile clients the server's
    // event loop has been seen to stall near a second on a slow 2-core machine, and an honest
    // approval then arrived after a 1 s timeout: hostile mode waits 2.5 s in either length.
    elicitationTimeoutMs: value(
      '--elicitation-timeout-ms',
      'SOAK_ELICITATION_TIMEOUT_MS',
      short && !hostile ? 1_000 : 2_500,
    ),
    hostile,
    // A quarter of the run, so slow bodies are cut (408) several times within it.
    bodyTimeoutMs: value('--body-timeout-ms', 'SOAK_BODY_TIMEOUT_MS', Math.floor(durationMs / 4)),
    drippers: value('--drippers', 'SOAK_DRIPPERS', 30, 0),
    parkSessions: value('--park-sessions', 'SOAK_PARK_SESSIONS', 5, 0),
    parkPerSession: value('--park-per-session', 'SOAK_PARK_PER_SESSION', 80),
    floodAddresses: value('--flood-addresses', 'SOAK_FLOOD_ADDRESSES', 3, 0),
    consoleDrippers: value('--console-drippers', 'SOAK_CONSOLE_DRIPPERS', 8, 0),
  };
}
