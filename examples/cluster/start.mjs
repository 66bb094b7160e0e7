// Three instances of the notes service in cluster mode behind a round-robin proxy, all on
// loopback: `npm run build`, then `node examples/cluster/start.mjs`. Clients connect to the
// proxy's URL (printed on stdout); each request may land on any instance.
//
// Environment: REDIS_URL (default redis://127.0.0.1:6379), REDIS_KEY_PREFIX (default
// mcp-warden:), MCP_STATE_SECRET (default: one random secret for the three), DATABASE_URL (the
// shared notes store, passed to every instance; without it each instance keeps its own notes in
// its own DATA_DIR, which is enough to watch sessions move but not to share notes), PORT (the
// proxy's, default 3000; 0 picks one), INSTANCES (default 3). Ctrl-C (or SIGTERM) stops them all.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRoundRobinProxy } from './round-robin-proxy.mjs';

const main = fileURLToPath(new URL('../../dist/app/main.js', import.meta.url));
const BANNER = /MCP Warden notes service: (http:\/\/\S+)\/mcp/;
const count = Number(process.env.INSTANCES ?? 3);
const shared = {
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  // Every instance must seal and open the 2026-07-28 era's requestState alike.
  MCP_STATE_SECRET: process.env.MCP_STATE_SECRET ?? randomBytes(32).toString('base64url'),
};
const dataDirs = [];

function startInstance(index) {
  const env = { ...process.env, ...shared, PORT: '0', HOST: '127.0.0.1' };
  if (!process.env.DATABASE_URL) {
    const dir = mkdtempSync(join(tmpdir(), `mcp-warden-cluster-${index}-`));
    dataDirs.push(dir);
    env.DATA_DIR = dir;
  }
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const base = new Promise((resolve, reject) => {
    let text = '';
    child.stderr.on('data', (chunk) => {
      text += chunk;
      const match = BANNER.exec(text);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`instance ${index} exited (${code}): ${text}`)));
  });
  return { child, base };
}

const instances = Array.from({ length: count }, (_, index) => startInstance(index));
let proxy;

async function stop() {
  await proxy?.close();
  await Promise.all(
    instances.map(({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      child.kill('SIGTERM');
      return once(child, 'exit');
    }),
  );
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}

try {
  const bases = await Promise.all(instances.map(({ base }) => base));
  proxy = await startRoundRobinProxy(bases, Number(process.env.PORT ?? 3000));
  process.stderr.write(`instances: ${bases.join(', ')} (cluster on ${shared.REDIS_URL})\n`);
  process.stdout.write(`${proxy.url}/mcp\n`);
} catch (error) {
  process.stderr.write(`cluster example: ${error.message}\n`);
  await stop();
  process.exit(1);
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void stop().then(() => process.exit(0)));
}
