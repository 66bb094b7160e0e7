import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The HTTP app on Express (Nest's default adapter), under the global prefix `api`. */
export async function createHttpApp(module: object): Promise<INestApplication> {
  const app = await NestFactory.create(module as never, { logger: ['error', 'warn'] });
  app.setGlobalPrefix('api');
  return app;
}
