// @ts-check
import process from 'node:process';

/** Writes one progress line on stderr (stdout is kept for the --json report). */
export function say(/** @type {string} */ line) {
  process.stderr.write(`soak: ${line}\n`);
}

/** Figures of the run; every counter but sessions and calls must end at 0. */
export const figures = {
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
  /** `late`: approvals acknowledged only after their timeout could have passed (client.mjs). */
  elicitations: { approved: 0, declined: 0, timedOut: 0, late: 0 },
  stdioExitFailures: 0,
  /**
   * Each answered call's round trip, ms, by transport and kind: `fast` (echo, read, ping, touch),
   * `slow` (slow_echo, less the delay it asked for), `guarded` (an elicitation round trip).
   */
  latency: {
    http: {
      fast: /** @type {number[]} */ ([]),
      slow: /** @type {number[]} */ ([]),
      guarded: /** @type {number[]} */ ([]),
    },
    stdio: {
      fast: /** @type {number[]} */ ([]),
      slow: /** @type {number[]} */ ([]),
      guarded: /** @type {number[]} */ ([]),
    },
  },
  /** @type {string[]} */
  problems: [],
};

/**
 * The p-th percentile (0..100) of `samples`, nearest rank; NaN when there are none.
 * @param {number[]} samples
 * @param {number} p
 */
export function percentile(samples, p) {
  if (samples.length === 0) return NaN;
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * p50, p99 and max of `samples`, ms, rounded to 0.01.
 * @param {number[]} samples
 */
export function summary(samples) {
  const round = (/** @type {number} */ ms) => Math.round(ms * 100) / 100;
  return {
    count: samples.length,
    p50: round(percentile(samples, 50)),
    p99: round(percentile(samples, 99)),
    max: round(samples.reduce((a, b) => Math.max(a, b), 0)),
  };
}

/** @typedef {'lost' | 'duplicated' | 'crossed' | 'wrong' | 'lostNotifications'} ProblemKind */

/**
 * Counts a failed check of `kind`; the first 20 are kept for the report.
 * @param {ProblemKind} kind
 * @param {string} detail
 */
export function problem(kind, detail) {
  figures[kind]++;
  if (figures.problems.length < 20) figures.problems.push(`${kind}: ${detail}`);
}

/** Zeroes what the warm-up counted, so the figures are the run's own. */
export function resetAfterWarmUp() {
  Object.assign(figures, {
    httpSessions: 0,
    calls: 0,
    answered: 0,
    notifications: 0,
    elicitations: { approved: 0, declined: 0, timedOut: 0, late: 0 },
  });
  for (const kinds of Object.values(figures.latency)) {
    for (const samples of Object.values(kinds)) samples.length = 0;
  }
}

/**
 * Rejects after `ms` unless cancelled. (Only bounds calls; never syncs.)
 * @param {number} ms
 * @param {string} what
 * @returns {{ promise: Promise<never>, cancel: () => void }}
 */
export function timeout(ms, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const promise = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}
