// N MCP Warden bench servers (warden-http.mjs, each its own process) behind the round-robin proxy
// of examples/cluster, the proxy in this process. Prints the proxy's URL on stdout.
// CLUSTER_INSTANCES: how many (default 1); CLUSTER_REDIS_URL: cluster mode on that Redis (the
// instances share a key prefix of their own, deleted on exit); without it each instance is
// embedded (in memory), which only makes sense with one. SIGTERM stops them all.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startRoundRobinProxy } from '../../examples/cluster/round-robin-proxy.mjs';

const count = Number(process.env.CLUSTER_INSTANCES ?? 1);
const redisUrl = process.env.CLUSTER_REDIS_URL;
const prefix = `mcp-warden-bench:${randomBytes(6).toString('hex')}:`;
const script = fileURLToPath(new URL('./warden-http.mjs', import.meta.url));

const children = Array.from({ length: count }, () =>
  spawn(process.execPath, [script], {
    env: {
      ...process.env,
      PORT: '0',
      ...(redisUrl ? { WARDEN_REDIS_URL: redisUrl, WARDEN_CLUSTER_PREFIX: prefix } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
);
const urls = await Promise.all(
  children.map(
    (child) =>
      new Promise((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk) => {
          text += chunk;
          const match = /(http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(text);
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`instance exited (${code})`)));
      }),
  ),
);
const proxy = await startRoundRobinProxy(urls);
process.stdout.write(`${proxy.url}/mcp\n`);

process.once('SIGTERM', async () => {
  await proxy.close();
  await Promise.all(
    children.map((child) => {
      // An instance that is gone already will not say so again.
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      return exited;
    }),
  );
  if (redisUrl) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
  process.exit(0);
});
