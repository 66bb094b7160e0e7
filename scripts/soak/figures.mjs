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
  elicitations: { approved: 0, declined: 0, timedOut: 0 },
  stdioExitFailures: 0,
  /** @type {string[]} */
  problems: [],
};

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
    elicitations: { approved: 0, declined: 0, timedOut: 0 },
  });
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
