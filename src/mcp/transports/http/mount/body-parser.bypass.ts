import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import { bypassExpressBodyParsers } from './express-body.bypass.js';
import { bypassFastifyBodyParsers } from './fastify-body.bypass.js';

/**
 * Once the app's routes and parsers are in place (module init runs after
 * both, before the server listens), keeps the app's body parsers off the MCP
 * routes, on Express and on Fastify. The app's own routes keep their parsers.
 */
@Injectable()
export class McpBodyParserBypass implements OnModuleInit {
  private readonly logger = new Logger('McpHttp');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(MCP_HTTP_SETTINGS) private readonly settings: McpHttpSettings,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return; // an application context (stdio) has no HTTP server
    const instance = adapter.getInstance();
    switch (adapter.getType()) {
      case 'express':
        if (bypassExpressBodyParsers(instance, this.settings.path).length === 0) {
          this.logger.warn('MCP routes not found on the Express router; body parsers not bypassed');
        }
        return;
      case 'fastify':
        bypassFastifyBodyParsers(instance);
        return;
      default:
        this.logger.warn(
          `HTTP adapter ${adapter.getType()} is not supported by the MCP transports`,
        );
    }
  }
}
