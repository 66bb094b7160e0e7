// @ts-check
// Starts the hostile clients (hostile-worker.mjs, in two threads: the console and link drippers
// in one of their own) and the latency probe (probe-worker.mjs), each in a worker thread of its
// own, and collects their reports.
import { Worker } from 'node:worker_threads';

/**
 * @typedef {import('./hostile-worker.mjs').HostileOptions} HostileOptions
 * @typedef {{
 *   drip: { requests: number, bytesSent: number, statuses: Record<string, number> },
 *   flood: { opened: number, statuses: Record<string, number>, rateLimited: number },
 *   park: { calls: number, parked: number, timedOut: number, refusedPending: number, rateLimited: number, other: number, statuses: Record<string, number> },
 *   saturate: { opened: number, statuses: Record<string, number> },
 *   saturateBodies: { uploads: number, statuses: Record<string, number> },
 *   consoleDrip: { mountedStatus: number, requests: number, bytesSent: number, statuses: Record<string, Record<string, number>>, unexpected: number, held: number, closed: number, leftOpen: number, answerMs: number[], closeMs: number[] },
 *   closed: number,
 *   closeFailures: number,
 *   notes: string[],
 * }} HostileReport
 */

/**
 * Starts the hostile clients; they stop by themselves at `options.deadline`. `legsDone` resolves
 * once they have; `finish()` then runs the saturation step and the clean-up and resolves with
 * the report (the console and link drippers' figures in `consoleDrip`).
 * @param {HostileOptions} options
 */
export function startHostile(options) {
  const consoleWorker = new Worker(new URL('./hostile-worker.mjs', import.meta.url), {
    workerData: { ...options, role: 'console' },
  });
  /** @type {Promise<Pick<HostileReport, 'consoleDrip' | 'notes'>>} */
  const consoleReport = new Promise((resolve, reject) => {
    consoleWorker.on('message', (message) => {
      if (message.type === 'report') resolve(message.report);
      else if (message.type === 'failed') {
        reject(new Error(`console and link drippers: ${message.error}`));
      }
    });
    consoleWorker.once('error', reject);
    consoleWorker.once('exit', (code) =>
      reject(new Error(`console and link drippers exited (${code}) before their report`)),
    );
  });
  consoleReport.catch(() => {}); // surfaced through finish()
  const worker = new Worker(new URL('./hostile-worker.mjs', import.meta.url), {
    workerData: options,
  });
  /** @type {(value: void) => void} */
  let legsDone = () => {};
  /** @type {(report: HostileReport) => void} */
  let reported = () => {};
  /** @type {(error: Error) => void} */
  let failed = () => {};
  const legs = new Promise((resolve) => (legsDone = resolve));
  /** @type {Promise<HostileReport>} */
  const report = new Promise((resolve, reject) => {
    reported = resolve;
    failed = reject;
  });
  report.catch(() => {}); // surfaced through finish()
  worker.on('message', (message) => {
    if (message.type === 'legs-done') legsDone();
    else if (message.type === 'report') reported(message.report);
    else if (message.type === 'failed') failed(new Error(`hostile clients: ${message.error}`));
  });
  worker.once('error', failed);
  worker.once('exit', (code) => {
    legsDone();
    failed(new Error(`hostile clients exited (${code}) before their report`));
  });
  return {
    legsDone: Promise.all([legs, consoleReport.catch(() => {})]),
    /** @returns {Promise<HostileReport>} */
    async finish() {
      worker.postMessage({ type: 'finish' });
      try {
        const [main, drips] = await Promise.all([report, consoleReport]);
        return { ...main, consoleDrip: drips.consoleDrip, notes: [...main.notes, ...drips.notes] };
      } finally {
        await Promise.all([worker.terminate(), consoleWorker.terminate()]);
      }
    },
  };
}

/**
 * @typedef {{ calls: number, answered: number, lost: number, wrong: number, samples: number[], problems: string[] }} ProbeReport
 */

/**
 * Starts the latency probe; it stops by itself at `options.deadline` and resolves with its figures.
 * @param {import('./probe-worker.mjs').ProbeOptions} options
 * @returns {Promise<ProbeReport>}
 */
export function startProbe(options) {
  const worker = new Worker(new URL('./probe-worker.mjs', import.meta.url), {
    workerData: options,
  });
  return new Promise((resolve, reject) => {
    worker.on('message', (message) => {
      if (message.type === 'report') resolve(message.report);
      else if (message.type === 'failed') reject(new Error(`latency probe: ${message.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`latency probe exited (${code}) before its report`)),
    );
  }).finally(() => worker.terminate());
}
