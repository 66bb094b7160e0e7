// MCP Warden over Streamable HTTP, exposing `echo` (and `guarded_echo`) behind configured seams.
// Prints its URL on stdout. PORT=0 picks a free port.
// WARDEN_OTEL=1 registers the OpenTelemetry SDK first, as an application would (before the app).
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
process.stdout.write(`http://127.0.0.1:${app.getHttpServer().address().port}/mcp\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
