// Load loops and statistics shared by the workloads.

/**
 * Runs `workers` concurrent loops of `step(worker, n)` until `count` steps have been started or
 * `seconds` have passed (whichever is set and comes first); resolves with steps per second.
 */
export async function drive({ workers, count = Infinity, seconds = Infinity, step }) {
  let started = 0;
  let done = 0;
  const begin = performance.now();
  const deadline = begin + seconds * 1000;
  const loop = async (worker) => {
    while (started < count && performance.now() < deadline) {
      await step(worker, ++started);
      done++;
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, worker) => loop(worker)));
  return (done * 1000) / (performance.now() - begin);
}

/**
 * drive() with the CPU time spent meanwhile: by the server (`serverCpu`, µs per step, from
 * /proc, so it holds up better than the rate on a busy machine) and by this driver (`driverCpu`,
 * % of one core; near 100 would mean the driver, not the server, sets the pace).
 */
export async function driveMeasured(server, options) {
  const serverBefore = server.cpu();
  const driverBefore = process.cpuUsage();
  const begin = performance.now();
  const rate = await drive(options);
  const ms = performance.now() - begin;
  const driver = process.cpuUsage(driverBefore);
  return {
    rate,
    serverCpu: ((server.cpu() - serverBefore) * 1e6) / ((rate * ms) / 1000),
    driverCpu: ((driver.user + driver.system) / 1000 / ms) * 100,
  };
}

/** Each step's duration in milliseconds, one step at a time. */
export async function timeSequential({ count = Infinity, seconds = Infinity, step }) {
  const samples = [];
  const deadline = performance.now() + seconds * 1000;
  for (let n = 1; n <= count && performance.now() < deadline; n++) {
    const begin = performance.now();
    await step(n);
    samples.push(performance.now() - begin);
  }
  return samples;
}

/** The p-th percentile (0..100) of `samples`, nearest-rank. */
export function percentile(samples, p) {
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Rejects after `ms` unless `promise` settles first, so a stuck server cannot hang the bench. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
