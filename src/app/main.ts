import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

/*
 * The notes service over HTTP: Streamable HTTP at /mcp, the older HTTP+SSE
 * pair at /sse and /messages, liveness at /health. Binds to loopback unless
 * HOST says otherwise; on any other address it needs OAUTH_ISSUER and
 * OAUTH_AUDIENCE (bearer auth), or it refuses to start.
 */
async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule.forTransport('http'));
  // Close the app (ending open streams, finishing in-flight calls), then exit 0.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void app.close().then(() => process.exit(0)));
  }
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(Number(process.env.PORT ?? 3000), host);
  const address = app.getHttpServer().address() as { port: number };
  const shown = host.includes(':') ? `[${host}]` : host;
  process.stderr.write(`MCP Warden notes service: http://${shown}:${address.port}/mcp\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`mcp-warden: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
