import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

/** The HTTP app on Fastify, under the global prefix `api`. */
export async function createHttpApp(module: object): Promise<INestApplication> {
  const app = await NestFactory.create(module as never, new FastifyAdapter(), {
    logger: ['error', 'warn'],
  });
  app.setGlobalPrefix('api');
  return app;
}
