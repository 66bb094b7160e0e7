import { Controller, Get, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { initializeParams } from '../support/http-app.js';

/** The fast-path specs' pieces: an initialize body, the app's own route, a module middleware. */
export const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: initializeParams(),
});

/** The app's own route, registered before the MCP routes. */
@Controller('health')
export class HealthController {
  @Get()
  health() {
    return { status: 'ok' };
  }
}

/** Urls the module middleware saw (it is a class: Nest builds it, not the test). */
export const moduleMiddlewareSeen: string[] = [];

/** A module with its own middleware for every route, as `nest g middleware` sets one up. */
@Module({})
export class TaggedRoutesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply((req: { originalUrl: string }, _res: unknown, next: () => void) => {
        moduleMiddlewareSeen.push(req.originalUrl);
        next();
      })
      .forRoutes('*path');
  }
}
