import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { TicketsModule } from '../tickets/tickets.module.js';

/** The same module on Fastify: the MCP routes are Fastify routes. */
export async function bootstrap(port = 3000): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    TicketsModule,
    new FastifyAdapter(),
    { logger: ['error', 'warn'] },
  );
  await app.listen(port, '127.0.0.1');
  return app;
}
