// Whether the Redis the cluster rows use answers (BENCH_REDIS_URL, else the local default). Without
// it a workload that needs it is skipped with one line, unless MCP_WARDEN_REQUIRE_SERVICES=1 (as CI
// sets), which makes its absence a failure.
import { Socket } from 'node:net';

export const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function redisReachable(workloadId, log) {
  const { hostname, port } = new URL(BENCH_REDIS_URL);
  const found = await new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port || 6379), hostname, () => done(true));
  });
  if (found) return true;
  if (process.env.MCP_WARDEN_REQUIRE_SERVICES === '1') {
    throw new Error(
      `${workloadId}: no Redis at ${BENCH_REDIS_URL} (MCP_WARDEN_REQUIRE_SERVICES=1)`,
    );
  }
  log(`skipped ${workloadId}: no Redis at ${BENCH_REDIS_URL}`);
  return false;
}
