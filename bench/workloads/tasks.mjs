// Tools as durable tasks (SEP-2663, the 2026-07-28 era) over Streamable HTTP, on the in-memory
// task store, with `echo_task` (the echo, `task: 'optional'`, a 0 ms tool):
//   throughput: 32 tasks in flight on 32 raw keep-alive connections, each created by a
//               tools/call that declares the tasks extension and polled with tasks/get (the
//               task's id in Mcp-Name) until it has finished, beside the same tool called plainly
//               (no extension: answered at once) on the same server script, interleaved; and the
//               same tasks on one instance in cluster mode, where the store is Redis (its own
//               CPU per task read from INFO, since the server process no longer does that work);
//   memory:     what a finished task costs while it waits out its TTL: after a warm-up of tasks,
//               N more tasks, each polled to completion, then nothing; heap per idle task =
//               (heapUsed after - heapUsed before) / N, each read after a full GC (memory.mjs).
import { callTool, runTask } from '../lib/mcp-http.mjs';
import { modernCall, taskCall } from '../lib/mcp.mjs';
import { drive, driveMeasured } from '../lib/measure.mjs';
import { RawHttpConnection } from '../lib/raw-http.mjs';

const IN_FLIGHT = 32;
/** The targets (lib/targets.mjs): tasks/s against the plain calls/s, and heap per idle task. */
export const TASKS_RATE_TARGET = 0.3;
export const TASK_HEAP_TARGET_BYTES = 2048;

/** The 32 connections of a row, each sending `headers` and the row's own on every request. */
const openConnections = (server, headers = {}) =>
  Promise.all(
    Array.from({ length: IN_FLIGHT }, () =>
      RawHttpConnection.open(server.url, { headers: { ...headers, ...server.headers } }),
    ),
  );

/** A step that runs one task on the worker's connection, counting the tasks and their polls. */
function taskStep(server, connections, counts) {
  const task = taskCall(server.call);
  let id = 0;
  return async (worker) => {
    // Read before adding: `counts.polls += await …` would add to the count from before the wait.
    const polls = await runTask(connections[worker], task, ++id);
    counts.polls += polls;
    counts.tasks++;
  };
}

/** The same tool without the extension, as throughput-http-modern sends it: answered at once. */
async function runPlain(server, sizes) {
  const call = modernCall(server.call);
  const connections = await openConnections(server, call.headers);
  try {
    let id = 0;
    // Every answer must be the complete echo (callTool throws on anything else, a task included).
    const step = (worker) => callTool(connections[worker], undefined, call, ++id);
    await drive({ workers: IN_FLIGHT, ...sizes.warmup, step });
    return await driveMeasured(server, { workers: IN_FLIGHT, ...sizes.throughput, step });
  } finally {
    for (const connection of connections) connection.close();
  }
}

async function runThroughput(server, sizes) {
  if (!server.tasks) return runPlain(server, sizes);
  const connections = await openConnections(server);
  const redis = server.needsRedis ? await redisCpuMeter(server.env.WARDEN_REDIS_URL) : undefined;
  try {
    const counts = { tasks: 0, polls: 0 };
    const step = taskStep(server, connections, counts);
    await drive({ workers: IN_FLIGHT, ...sizes.warmup, step });
    Object.assign(counts, { tasks: 0, polls: 0 });
    const redisBefore = await redis?.cpu();
    const measured = await driveMeasured(server, { workers: IN_FLIGHT, ...sizes.throughput, step });
    const redisCpu = redis && (((await redis.cpu()) - redisBefore) * 1e6) / counts.tasks;
    return { ...measured, polls: counts.polls / counts.tasks, ...(redis ? { redisCpu } : {}) };
  } finally {
    for (const connection of connections) connection.close();
    await redis?.close();
  }
}

/**
 * The CPU seconds (user + system) the Redis server at `url` has used so far, from INFO: all of
 * its clients', so a Redis shared with other work inflates it.
 */
async function redisCpuMeter(url) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url);
  return {
    async cpu() {
      const info = await redis.info('cpu');
      const field = (name) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)[1]);
      return field('used_cpu_user') + field('used_cpu_sys');
    },
    close: () => redis.quit(),
  };
}

export const throughputHttpTasks = {
  id: 'throughput-http-tasks',
  title: `tools as tasks, ${IN_FLIGHT} in flight, Streamable HTTP, 2026-07-28 era (each task created by tools/call and polled with tasks/get to completion; in-memory store, and one instance in cluster mode on Redis)`,
  transport: 'http',
  servers: ['warden-task-call-http', 'warden-tasks-http', 'warden-cluster-tasks-http'],
  baselines: ['warden-task-call-http', 'warden-tasks-http'],
  metrics: [
    { key: 'rate', label: 'tasks (or calls)/s', unit: '/s' },
    { key: 'serverCpu', label: 'server CPU (µs/task or call)', unit: 'µs', ratio: false },
    { key: 'redisCpu', label: 'Redis CPU (µs/task)', unit: 'µs', ratio: false },
    { key: 'polls', label: 'tasks/get per task', unit: '', ratio: false },
    { key: 'driverCpu', label: 'driver CPU (% of a core)', unit: '%', ratio: false },
  ],
  run: runThroughput,
};

export const memoryHttpTasks = {
  id: 'memory-http-tasks',
  title:
    'Server memory per idle finished task (kept until its TTL), Streamable HTTP, in-memory store',
  transport: 'http',
  servers: ['warden-tasks-http'],
  metrics: [
    { key: 'taskHeap', label: 'heap / idle task (bytes)', unit: 'B' },
    { key: 'taskRss', label: 'RSS / idle task (bytes)', unit: 'B', ratio: false },
  ],
  async run(server, sizes) {
    const count = sizes.memoryTasks;
    const connections = await openConnections(server);
    try {
      const counts = { tasks: 0, polls: 0 };
      const step = taskStep(server, connections, counts);
      // The warm-up's tasks stay too (their TTL is 10 minutes): they are in the baseline.
      await drive({ workers: IN_FLIGHT, ...sizes.warmup, step });
      const base = await server.memory();
      await drive({ workers: IN_FLIGHT, count, step });
      const idle = await server.memory();
      return {
        taskHeap: (idle.heap - base.heap) / count,
        taskRss: (idle.rss - base.rss) / count,
      };
    } finally {
      for (const connection of connections) connection.close();
    }
  },
};
