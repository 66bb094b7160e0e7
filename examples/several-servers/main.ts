import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { SeveralServersModule } from './several-servers.module.js';

/* Serves both servers on 127.0.0.1:3003 (PORT overrides): /admin/mcp and /partner/mcp. */
async function main(): Promise<void> {
  const app = await NestFactory.create(SeveralServersModule);
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3003);
  await app.listen(port, '127.0.0.1');
  process.stderr.write(
    `several-servers example: http://127.0.0.1:${port}/admin/mcp and /partner/mcp\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`several-servers example: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
