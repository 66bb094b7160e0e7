// Starts each server under test as its own process and keeps track of it: its URL (HTTP servers
// print it on stdout or stderr), its memory and its event-loop delay (through the preloaded
// probes), an unexpected exit (which fails the measurement instead of hanging it), and a stop
// that always ends it.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const probe = (name) =>
  pathToFileURL(fileURLToPath(new URL(`../servers/${name}`, import.meta.url))).href;
const PROBES = ['memory-probe.mjs', 'loop-probe.mjs'].flatMap((name) => ['--import', probe(name)]);
// The MCP endpoint a server prints: `/mcp`, or under a path (a second server: `/second/mcp`).
const URL_PATTERN = /http:\/\/127\.0\.0\.1:\d+(?:\/[\w-]+)*\/mcp/;
const STARTUP_MS = 30_000;
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
const live = new Set();
const crashes = [];

/* User + system CPU seconds from a /proc stat file (a process's or one of its threads'). */
function cpuSeconds(statFile) {
  // Fields after the command name, which is in parentheses and may hold spaces.
  const stat = readFileSync(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * Spawns `script` with node. `transport` 'http' resolves once a loopback URL is printed;
 * 'stdio' resolves at once with the child's pipes open (the client's initialize is the handshake).
 * `nodeFlags` go to node before the script (e.g. --cpu-prof).
 */
export function startServer({ id: name, script, transport, env = {} }, nodeFlags = []) {
  const child = spawn(process.execPath, [...nodeFlags, ...PROBES, script], {
    // NODE_ENV=production: how a server is deployed (libraries may take faster paths then).
    env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'production', PORT: '0', ...env },
    stdio: [transport === 'stdio' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let stopping = false;
  let onUrl;
  const tail = [];
  const memoryWaiters = [];
  const loopWaiters = [];
  let failCrash;
  const handle = {
    name,
    child,
    pid: child.pid,
    url: undefined,
    /** Rejects if the process exits before stop(); race measurements against it. */
    crashed: new Promise((_, reject) => (failCrash = reject)),
    /** RSS (VmRSS from /proc) and V8 heap after a full GC, in bytes. */
    async memory() {
      const usage = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no memory report`)), 15_000);
        memoryWaiters.push((value) => {
          clearTimeout(timer);
          resolve(value);
        });
      });
      child.kill('SIGUSR2');
      const { heapUsed } = await usage;
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return { rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024, heap: heapUsed };
    },
    /**
     * The event loop's longest and p99 delay (ms) since the previous call, from the preloaded
     * loop probe; the first call starts the monitor (and reports nothing worth reading).
     */
    loopDelay() {
      const report = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no event-loop report`)), 15_000);
        loopWaiters.push((value) => {
          clearTimeout(timer);
          resolve(value);
        });
      });
      child.kill('SIGWINCH');
      return report;
    },
    /** CPU seconds (user + system) the process has used so far. */
    cpu() {
      return cpuSeconds(`/proc/${child.pid}/stat`);
    },
    /** CPU seconds each of the process's threads has used so far, by thread id (the main first). */
    threadCpu() {
      const dir = `/proc/${child.pid}/task`;
      return new Map(
        readdirSync(dir)
          .sort((a, b) => Number(a) - Number(b))
          .flatMap((tid) => {
            try {
              return [[tid, cpuSeconds(`${dir}/${tid}/stat`)]];
            } catch {
              return []; // the thread ended since the listing
            }
          }),
      );
    },
    stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const hard = setTimeout(() => child.kill('SIGKILL'), 3_000);
      return exited.finally(() => clearTimeout(hard));
    },
  };
  handle.crashed.catch(() => {}); // observed by whoever races against it
  live.add(handle);

  const onLine = (line) => {
    if (line.startsWith('bench-memory '))
      return memoryWaiters.shift()?.(JSON.parse(line.slice(13)));
    if (line.startsWith('bench-loop ')) return loopWaiters.shift()?.(JSON.parse(line.slice(11)));
    const url = onUrl && URL_PATTERN.exec(line);
    if (url) return onUrl(url[0]);
    tail.push(line);
    if (tail.length > 20) tail.shift();
  };
  // Both streams are always drained: a server that logs (the service audits every call on
  // stderr) must never block on a full pipe.
  createInterface({ input: child.stderr }).on('line', onLine);
  if (transport !== 'stdio') createInterface({ input: child.stdout }).on('line', onLine);

  child.once('exit', (code, signal) => {
    live.delete(handle);
    if (stopping) return;
    const why = `${name} exited (code ${code}, signal ${signal})`;
    const lines = tail.length ? `; its last stderr lines:\n${tail.join('\n')}` : '';
    crashes.push(new Error(why + lines));
    failCrash(crashes.at(-1));
  });

  if (transport === 'stdio') return Promise.resolve(handle);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      handle.stop();
      reject(new Error(`${name} printed no URL within ${STARTUP_MS} ms`));
    }, STARTUP_MS);
    onUrl = (url) => {
      clearTimeout(timer);
      onUrl = undefined;
      handle.url = url;
      resolve(handle);
    };
    handle.crashed.catch((error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Every unexpected exit so far, including those of servers no measurement was waiting on. */
export function crashed() {
  return crashes;
}

/** Stops every server still running. */
export function stopAll() {
  return Promise.all([...live].map((handle) => handle.stop()));
}

/** Last resort on process exit: no server outlives the bench. */
export function killAllNow() {
  for (const handle of live) handle.child.kill('SIGKILL');
}
