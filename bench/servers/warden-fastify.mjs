// MCP Warden over Streamable HTTP on Nest's Fastify adapter, with the same tools and policy as
// warden-http.mjs. Prints its URL on stdout. PORT=0 picks a free port.
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { wardenBenchModule } from './warden-app.mjs';

const app = await NestFactory.create(
  // The same raised session bound as warden-http.mjs (the setup workload never ends its sessions).
  wardenBenchModule('http', { maxSessions: 100_000 }),
  new FastifyAdapter(),
  { logger: ['error'] },
);
await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.stdout.write(`http://127.0.0.1:${app.getHttpServer().address().port}/mcp\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
