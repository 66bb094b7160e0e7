import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** How long a throwaway Redis may take to start listening before the test gives up. */
const START_TIMEOUT_MS = 10_000;

/*
 * A Redis of the test's own, on a free loopback port, that it may kill and start again empty.
 * The machine's shared Redis is never restarted or flushed: other suites use it at the same time.
 */

/** Whether `redis-server` can be run here (the gate of the suites that restart one). */
export function redisServerLookup(): { value: true } | { reason: string } {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? { value: true } : { reason: 'redis-server is not on the PATH' };
}

/** A free TCP port on loopback (Redis has no "port 0": a port is picked here and released). */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** A `redis-server` child process with no persistence: every start is an empty store. */
export class ThrowawayRedis {
  private child?: ChildProcess;

  private constructor(readonly port: number) {}

  /** Starts one on a free port; rejects when `redis-server` is missing or does not listen. */
  static async start(): Promise<ThrowawayRedis> {
    const redis = new ThrowawayRedis(await freePort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Kills the server at once (SIGKILL: no goodbye to its clients), keeping its port. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** Starts the server on its port (again, empty, if it ran before). */
  async restart(): Promise<void> {
    await this.kill();
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    let output = '';
    const listening = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start: ${output}`)),
        START_TIMEOUT_MS,
      );
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${output}`));
      });
    });
    child.stderr!.resume();
    await listening;
    // Nothing reads its output from here on; keep the pipe drained.
    child.stdout!.removeAllListeners('data');
    child.stdout!.resume();
  }

  /** Stops the server for good. */
  stop(): Promise<void> {
    return this.kill();
  }
}
