import {
  Body,
  Controller,
  Injectable,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
  Module,
  Post,
  type INestApplication,
  type MiddlewareConsumer,
  type NestMiddleware,
  type NestModule,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { map, type Observable } from 'rxjs';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { Authorizers, McpModule, McpTool } from '../../src/index.js';

/** The adapters every scenario here runs on. */
export type AdapterName = 'express' | 'fastify';
export const ADAPTERS: AdapterName[] = ['express', 'fastify'];

/** A tool whose argument can be as large as a test likes. */
@Injectable()
export class EchoTools {
  @McpTool({
    description: 'Echoes the length of its text',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  echo({ text }: { text: string }) {
    return `length ${text.length}`;
  }
}

/** The app's own REST route, which must keep its JSON body parser. */
@Controller('notes')
export class NotesController {
  @Post()
  create(@Body() body: { title?: string }) {
    return { saved: body?.title ?? null };
  }
}

/** Module middleware applied with MiddlewareConsumer to every route. */
@Injectable()
export class TagMiddleware implements NestMiddleware {
  use(req: unknown, res: { setHeader(name: string, value: string): void }, next: () => void) {
    res.setHeader('x-module-middleware', 'seen');
    next();
  }
}

/** An app-wide guard written for the app's REST routes: HTTP requests need an API key. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>();
    return req.headers['x-api-key'] === 'k';
  }
}

/** An app-wide interceptor that wraps REST results in an envelope. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    return next.handle().pipe(map((data) => ({ data })));
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'nest-native',
      version: '1.0.0',
      transport: 'http',
      authorizer: Authorizers.allowAll(),
      authorizerSource: 'configured',
      readAuthorizer: Authorizers.allowAll(),
    }),
  ],
  controllers: [NotesController],
  providers: [
    EchoTools,
    TagMiddleware,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
  ],
})
export class NestNativeAppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(TagMiddleware).forRoutes('*path');
  }
}

export interface NativeApp {
  app: INestApplication;
  base: string;
  /** Paths seen by an `app.use()` middleware, in order. */
  seen: string[];
}

/** Boots the app on `adapter` with a global prefix, CORS and an `app.use()` middleware. */
export async function bootNativeApp(adapter: AdapterName): Promise<NativeApp> {
  const moduleRef = await Test.createTestingModule({ imports: [NestNativeAppModule] }).compile();
  const app =
    adapter === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  const seen: string[] = [];
  app.use((req: { url?: string }, _res: unknown, next: () => void) => {
    seen.push(req.url ?? '');
    next();
  });
  app.setGlobalPrefix('api');
  app.enableCors({ origin: 'http://localhost:5173', exposedHeaders: ['mcp-session-id'] });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, base: `http://127.0.0.1:${port}`, seen };
}
