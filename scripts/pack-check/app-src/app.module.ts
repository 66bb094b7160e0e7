import {
  type DynamicModule,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  RequestMethod,
} from '@nestjs/common';
import { McpModule, type McpBearerAuthOptions } from 'mcp-warden';
import { AddTools } from './add.tools.js';
import { mcpOptions } from './mcp-options.js';
import { RequestTagMiddleware } from './request-tag.middleware.js';

@Module({})
export class AppModule implements NestModule {
  /** The app with its MCP server; `auth` turns on bearer tokens. */
  static forRoot(auth?: McpBearerAuthOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [McpModule.forRoot(mcpOptions(auth))],
      providers: [AddTools],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestTagMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
