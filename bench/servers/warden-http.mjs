// MCP Warden over Streamable HTTP, exposing `echo` (and `guarded_echo`) behind configured seams.
// Prints its URL on stdout. PORT=0 picks a free port.
// WARDEN_OTEL=1 registers the OpenTelemetry SDK first, as an application would (before the app).
// WARDEN_SERVERS=2 serves two servers in one app; WARDEN_TARGET=second prints the second's URL.
// WARDEN_CLUSTER_CLEANUP=1 (cluster mode, a prefix only this process uses) deletes every key under
// WARDEN_CLUSTER_PREFIX once the app has closed on SIGTERM, as warden-cluster-http.mjs does.
if (process.env.WARDEN_OTEL) await import('./otel-sdk.mjs');
const { NestFactory } = await import('@nestjs/core');
const { wardenBenchModule } = await import('./warden-app.mjs');

const app = await NestFactory.create(
  // The session bound is raised past the default 1,000: the setup workload opens a new session
  // per iteration and never ends them, like clients that just go away.
  wardenBenchModule('http', { maxSessions: 100_000 }),
  { logger: ['error'] },
);
await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
const path = process.env.WARDEN_TARGET === 'second' ? '/second/mcp' : '/mcp';
process.stdout.write(`http://127.0.0.1:${app.getHttpServer().address().port}${path}\n`);
process.on('SIGTERM', () =>
  app
    .close()
    .then(deleteClusterKeys)
    .then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`stopping: ${error?.stack ?? error}\n`);
        process.exit(1);
      },
    ),
);

async function deleteClusterKeys() {
  const [url, prefix] = [process.env.WARDEN_REDIS_URL, process.env.WARDEN_CLUSTER_PREFIX];
  if (process.env.WARDEN_CLUSTER_CLEANUP !== '1' || !url || !prefix) return;
  const { Redis } = await import('ioredis');
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    // In slices: tens of thousands of tasks' keys in one command would be one long Redis stall.
    for (let i = 0; i < keys.length; i += 1_000) await redis.unlink(...keys.slice(i, i + 1_000));
  } finally {
    await redis.quit();
  }
}
