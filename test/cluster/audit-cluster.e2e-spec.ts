import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { runAuditCommand } from '../../src/cli/audit.command.js';
import { findService, describeWithService, TEST_REDIS_URL } from '../support/services.js';
import { ClusterInstance, deleteKeys, uniquePrefix } from './cluster-support.js';

/*
 * Three instances of the cluster fixture, each its own process on one Redis, each writing its
 * own audit chain into one shared folder and publishing its signed checkpoints to the cluster's
 * Redis (docs/audit.md). One `mcp-warden audit verify` over the folder proves all three chains,
 * and the checkpoints in Redis catch a log whose end, checkpoints included, was cut off.
 */

const NAMES = ['a', 'b', 'c'];
const CALLS = 5;

describeWithService(await findService(TEST_REDIS_URL), 'audit in cluster mode', (redisUrl) => {
  let prefix: string;
  let dir: string;
  let keyFile: string;
  let instances: ClusterInstance[];

  beforeAll(async () => {
    prefix = uniquePrefix();
    dir = mkdtempSync(join(tmpdir(), 'mcp-warden-audit-cluster-'));
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    keyFile = join(dir, '..', `${prefix.replace(/\W/g, '_')}audit.pub`);
    writeFileSync(keyFile, publicKey.export({ type: 'spki', format: 'pem' }));
    instances = NAMES.map(
      (name) =>
        new ClusterInstance(name, {
          REDIS_URL: redisUrl,
          CLUSTER_PREFIX: prefix,
          AUDIT_DIR: dir,
          AUDIT_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
          AUDIT_CHECKPOINT_EVERY: '4',
        }),
    );
    // Calls on every instance, each through its own session.
    for (const instance of instances) {
      const client = new Client({ name: 'audit-cluster-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', await instance.base)));
      for (let call = 0; call < CALLS; call += 1) {
        await client.callTool({ name: 'whoami', arguments: {} });
      }
      await client.close();
    }
    // A graceful stop signs each chain's last checkpoint and publishes it.
    for (const instance of instances) {
      await instance.kill('SIGTERM');
      expect(await instance.exited).toEqual({ code: 0, signal: null });
    }
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
    await deleteKeys(redisUrl, prefix);
    rmSync(dir, { recursive: true, force: true });
    rmSync(keyFile, { force: true });
  });

  const checkpointsUrl = () =>
    `${redisUrl}?key=${encodeURIComponent(`${prefix}audit:checkpoints`)}`;

  async function verify(...args: string[]) {
    const out: string[] = [];
    const status = await runAuditCommand(
      ['verify', ...args],
      out.push.bind(out),
      out.push.bind(out),
    );
    return { status, out: out.join('\n') };
  }

  it('three chains, one verify: each intact, every checkpoint signed and published', async () => {
    const { status, out } = await verify(dir, '--key', keyFile, '--checkpoints', checkpointsUrl());
    expect(out).toMatch(/^3 chains intact, 0 broken$/m);
    const chains = out.split('\n').filter((line) => line.startsWith('ok '));
    expect(chains).toHaveLength(3);
    for (const chain of chains) {
      // CALLS decisions and outcomes at least, and a checkpoint covering the last record.
      expect(chain).toMatch(
        /: (\d+) records, chain intact; (\d+)\/\2 checkpoints verified, 0 records after the last$/,
      );
      expect(Number(/: (\d+) records/.exec(chain)![1])).toBeGreaterThanOrEqual(2 * CALLS);
    }
    expect(status).toBe(0);

    // Every checkpoint in the files is in Redis, and nothing else is.
    const redis = new Redis(redisUrl);
    try {
      const published = (await redis.xrange(`${prefix}audit:checkpoints`, '-', '+')).map(
        ([, fields]) => JSON.parse(fields[1]!) as { instance: string; seq: number },
      );
      const inFiles = readdirSync(dir)
        .flatMap((file) => readFileSync(join(dir, file), 'utf8').trim().split('\n'))
        .map((line) => JSON.parse(line) as { kind: string; instance: string; seq: number })
        .filter((record) => record.kind === 'checkpoint')
        .map(({ instance, seq }) => `${instance}#${seq}`);
      expect(new Set(published.map(({ instance }) => instance)).size).toBe(3);
      expect(published.map(({ instance, seq }) => `${instance}#${seq}`).sort()).toEqual(
        inFiles.sort(),
      );
    } finally {
      redis.disconnect();
    }
  });

  it('a chain cut short with its checkpoints verifies alone, and is caught by Redis’s copy', async () => {
    const [file] = readdirSync(dir).sort();
    const lines = readFileSync(join(dir, file!), 'utf8').trim().split('\n');
    // Cut after the second-to-last checkpoint: the file still ends on a signed checkpoint.
    const checkpoints = lines
      .map((line, index) => (JSON.parse(line).kind === 'checkpoint' ? index : -1))
      .filter((index) => index >= 0);
    const cutAt = checkpoints[checkpoints.length - 2]! + 1;
    writeFileSync(join(dir, file!), lines.slice(0, cutAt).join('\n') + '\n');

    const alone = await verify(dir, '--key', keyFile);
    expect(alone.out).toMatch(/^3 chains intact, 0 broken$/m);
    expect(alone.status).toBe(0);

    const withRedis = await verify(dir, '--key', keyFile, '--checkpoints', checkpointsUrl());
    expect(withRedis.out).toMatch(/^2 chains intact, 1 broken$/m);
    const seq = JSON.parse(lines[checkpoints[checkpoints.length - 1]!]!).seq;
    expect(withRedis.out).toMatch(new RegExp(`^  truncated:.*${seq}`, 'm'));
    expect(withRedis.status).toBe(1);
  });
});
