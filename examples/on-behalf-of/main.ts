import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { OnBehalfOfModule } from './on-behalf-of.module.js';

/* Serves the on-behalf-of example on http://127.0.0.1:3002/mcp (PORT overrides the port). */
async function main(): Promise<void> {
  const app = await NestFactory.create(OnBehalfOfModule);
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3002);
  await app.listen(port, '127.0.0.1');
  process.stderr.write(`on-behalf-of example: http://127.0.0.1:${port}/mcp\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`on-behalf-of example: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
