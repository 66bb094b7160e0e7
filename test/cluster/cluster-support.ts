import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { StreamText } from '../support/stdio-child.js';

/** The cluster fixture app (plain JS on the built framework). */
export const CLUSTER_APP = resolve(process.cwd(), 'test/fixtures/cluster/cluster-app.mjs');

const BANNER = /cluster app (\S+): (http:\/\/\S+)\/mcp\n/;

/** One instance of the fixture in its own process, on a loopback port. */
export class ClusterInstance {
  readonly process: ChildProcess;
  readonly stderr: StreamText;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Its base URL (no path), once it listens. */
  readonly base: Promise<string>;

  constructor(
    readonly name: string,
    env: Record<string, string | undefined>,
  ) {
    this.process = spawn(process.execPath, [CLUSTER_APP], {
      env: { ...process.env, NODE_OPTIONS: '', PORT: '0', CLUSTER_NAME: name, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((done) =>
      this.process.once('exit', (code, signal) => done({ code, signal })),
    );
    this.process.stdout!.resume();
    this.stderr = new StreamText(this.process.stderr!);
    this.base = Promise.race([
      this.stderr
        .waitFor((text) => BANNER.test(text))
        .then(() => BANNER.exec(this.stderr.text)![2]),
      this.exited.then(({ code, signal }) => {
        throw new Error(`${name} exited (${code ?? signal}) before listening: ${this.stderr.text}`);
      }),
    ]);
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.running) this.process.kill(signal);
    await this.exited;
  }
}

/** A key prefix no other test run shares (parallel workers, several Node versions at once). */
export function uniquePrefix(): string {
  return `mcp-warden-test:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix`. */
export async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
