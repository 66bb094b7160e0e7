import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import {
  describeWithService,
  findService,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
} from '../support/services.js';

/*
 * The soak's cluster mode, short (scripts/soak.mjs --cluster --short, about
 * 10 s): three service instances on one Redis and one PostgreSQL schema behind
 * the round-robin proxy, writers and readers through it, one instance killed
 * with SIGKILL halfway. Nothing acknowledged may be lost, no response may
 * cross, no call may end in silence, and the others keep serving.
 */

jest.setTimeout(120_000);

interface ClusterReport {
  calls: number;
  answered: number;
  errors: number;
  silent: number;
  crossed: number;
  writesAfterKill: number;
  acknowledged: number;
  stored: number;
  lost: number;
  failures: string[];
}

const redis = await findService(TEST_REDIS_URL);
const postgres = await findService(TEST_DATABASE_URL);
const both = redis.found ? postgres : redis;

describeWithService(both, 'soak (cluster mode, short)', () => {
  it('an instance killed mid-run: 0 acknowledged writes lost, 0 crossed, 0 silent, the rest keep serving', async () => {
    const child = spawn(
      process.execPath,
      [resolve(process.cwd(), 'scripts/soak.mjs'), '--cluster', '--short', '--json'],
      {
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          REDIS_URL: TEST_REDIS_URL,
          DATABASE_URL: TEST_DATABASE_URL,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((done) => child.once('close', done));
    console.log(stderr.trim());
    const report = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ClusterReport;
    expect(report.failures).toEqual([]);
    expect({ lost: report.lost, crossed: report.crossed, silent: report.silent }).toEqual({
      lost: 0,
      crossed: 0,
      silent: 0,
    });
    expect(report.acknowledged).toBeGreaterThan(50);
    expect(report.stored).toBeGreaterThanOrEqual(report.acknowledged);
    expect(report.writesAfterKill).toBeGreaterThan(0);
    // Every call ended one way or the other: answered, refused with an error, or (never) silent.
    expect(report.answered + report.errors + report.silent + report.crossed).toBe(report.calls);
    expect(code).toBe(0);
  });
});
