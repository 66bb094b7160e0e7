import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { TicketsModule } from './tickets.module.js';

/* Serves the tickets example on http://127.0.0.1:3001/mcp (PORT overrides the port). */
async function main(): Promise<void> {
  const app = await NestFactory.create(TicketsModule);
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3001);
  await app.listen(port, '127.0.0.1');
  process.stderr.write(`tickets example: http://127.0.0.1:${port}/mcp\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`tickets example: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
