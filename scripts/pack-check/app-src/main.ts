import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { AppModule } from './app.module.js';
import { createHttpApp } from './http-app.js';
import { authFromEnv } from './mcp-options.js';

/*
 * Boots the app, listens on 127.0.0.1 on a free port and prints `listening <port>`; the pack
 * check then drives /api/mcp over Streamable HTTP and the SSE pair, and stops it with SIGTERM.
 */
async function main(): Promise<void> {
  const app = await createHttpApp(AppModule.forRoot(authFromEnv()));
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`listening ${port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
