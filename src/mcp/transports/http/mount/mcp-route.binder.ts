import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { McpHttpAuthenticator } from '../../../authentication/http-authenticator.service.js';
import { serveProtectedResourceMetadata } from '../../../authentication/protected-resource.routes.js';
import type { Server } from 'node:http';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import { withExpressClientAddress } from './express-client-address.js';
import { bindExpressRoutes } from './express-routes.binder.js';
import { installFastPath } from './fast-path.installer.js';
import { boundServerTimeouts } from './server-timeouts.js';
import { bindFastifyRoutes } from './fastify-routes.binder.js';
import { McpHttpRouter } from './mcp-http.router.js';

/**
 * Once Nest has registered the routes and the body parsers (module init runs
 * after both, before the server listens), binds the MCP routes to their
 * endpoints on the adapter underneath: Express or Fastify.
 */
@Injectable()
export class McpRouteBinder implements OnModuleInit {
  private readonly logger = new Logger('McpHttp');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly router: McpHttpRouter,
    private readonly authenticator: McpHttpAuthenticator,
    @Inject(MCP_HTTP_SETTINGS) private readonly settings: McpHttpSettings,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return; // an application context (stdio) has no HTTP server
    const serve = this.router.serve.bind(this.router);
    const instance = adapter.getInstance();
    boundServerTimeouts(adapter.getHttpServer() as Server | undefined, this.settings);
    if (this.authenticator.enabled) serveProtectedResourceMetadata(adapter, this.settings.auth);
    switch (adapter.getType()) {
      case 'express': {
        const { routes, middlewareInFront } = bindExpressRoutes(
          instance,
          this.settings.path,
          serve,
        );
        const { fastPath } = this.settings;
        if (routes.size === 0) {
          this.logger.warn('MCP routes not found on the Express router; served through Nest');
        } else if (fastPath === true || (fastPath === 'auto' && !middlewareInFront)) {
          installFastPath(
            adapter.getHttpServer() as Server | undefined,
            routes,
            withExpressClientAddress(instance, serve),
          );
        }
        return;
      }
      case 'fastify':
        bindFastifyRoutes(instance, this.settings.path, serve);
        return;
      default:
        this.logger.warn(`MCP routes on the ${adapter.getType()} adapter are served through Nest`);
    }
  }
}
