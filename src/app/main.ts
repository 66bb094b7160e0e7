import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { ServiceLogger } from './logging/service.logger.js';
import { exitWhenWritten, exitWithReason, stderrLines } from './logging/stderr-lines.js';
import { httpOperations } from './operations/http-operations.parts.js';

/*
 * The notes service over HTTP: Streamable HTTP at /mcp, the older HTTP+SSE
 * pair at /sse and /messages, liveness at /health. Binds to loopback unless
 * HOST says otherwise; on any other address it needs OAUTH_ISSUER and
 * OAUTH_AUDIENCE (bearer auth), or it refuses to start.
 */
async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule.forTransport('http', httpOperations()), {
    logger: new ServiceLogger(),
  });
  // Close the app (ending open streams, finishing in-flight calls), then exit 0.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void app.close().then(() => exitWhenWritten(0)));
  }
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  try {
    await app.listen(port, host);
  } catch (error) {
    await app.close();
    throw listenFailure(error, host, port);
  }
  const address = app.getHttpServer().address() as { port: number };
  const shown = host.includes(':') ? `[${host}]` : host;
  // Through the writer every other line takes, so it is never written inside one of them.
  stderrLines().write(`MCP Warden notes service: http://${shown}:${address.port}/mcp\n`);
}

/* One plain line for the usual reasons a listen fails; anything else as it is. */
function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reasons: Record<string, string> = {
    EADDRINUSE: 'the address is already in use',
    EACCES: 'permission denied',
    EADDRNOTAVAIL: 'the address is not available on this machine',
  };
  return code && reasons[code]
    ? new Error(`cannot listen on ${host}:${port}: ${reasons[code]}`)
    : error;
}

main().catch(exitWithReason);
