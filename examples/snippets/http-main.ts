import {
  Injectable,
  Module,
  type INestApplication,
  type MiddlewareConsumer,
  type NestMiddleware,
  type NestModule,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TicketsModule } from '../tickets/tickets.module.js';

/** Module middleware: runs on the MCP routes like on any other route. */
@Injectable()
export class RequestIdMiddleware implements NestMiddleware {
  use(req: IncomingMessage, res: ServerResponse, next: () => void) {
    res.setHeader('x-request-id', String(req.headers['x-request-id'] ?? crypto.randomUUID()));
    next();
  }
}

@Module({ imports: [TicketsModule] })
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(RequestIdMiddleware).forRoutes('*path');
  }
}

/** Serves MCP at http://127.0.0.1:<port>/api/mcp, behind the app's prefix, CORS and middleware. */
export async function bootstrap(port = 3000): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  app.setGlobalPrefix('api'); // MCP moves to /api/mcp, /api/sse, /api/messages
  // Preflights are answered; expose the session header to browser clients.
  app.enableCors({ origin: 'http://localhost:5173', exposedHeaders: ['mcp-session-id'] });
  app.enableShutdownHooks(); // SIGTERM ends open streams and finishes in-flight calls
  await app.listen(port, '127.0.0.1');
  return app;
}
