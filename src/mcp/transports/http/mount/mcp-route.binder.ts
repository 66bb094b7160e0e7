import {
  Inject,
  Injectable,
  Logger,
  Optional,
  VersioningType,
  type OnModuleInit,
} from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost } from '@nestjs/core';
import { underGlobalPrefix } from '../../../core/http/global-prefix.js';
import { McpServerScope } from '../../../core/servers/mcp-server-scope.service.js';
import { McpHttpAuthenticator } from '../../../authentication/http-authenticator.service.js';
import { serveProtectedResourceMetadata } from '../../../authentication/protected-resource.routes.js';
import type { Server } from 'node:http';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import { withExpressClientAddress } from './express-client-address.js';
import { buildOnExpressPrototypes } from './express-prototypes.js';
import { bindExpressRoutes, type McpRoutePaths } from './express-routes.binder.js';
import { installFastPath } from './fast-path.installer.js';
import { boundServerTimeouts, type ServerTimeoutLimits } from './server-timeouts.js';
import type { McpAuthenticationSettings } from '../../../authentication/authentication-settings.interface.js';
import { FastifyFastPath } from './fastify-fast-path.js';
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
    private readonly scope: McpServerScope,
    @Optional() private readonly config?: ApplicationConfig,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return; // an application context (stdio) has no HTTP server
    const serve = this.router.serve.bind(this.router);
    const instance = adapter.getInstance();
    boundServerTimeouts(adapter.getHttpServer() as Server | undefined, this.timeoutLimits());
    const paths = this.ownPaths();
    if (this.authenticator.enabled) {
      // With several servers, each serves its own document at its own resource's URL only.
      const at = paths.exact ? paths.streamable : undefined;
      serveProtectedResourceMetadata(adapter, this.settings.auth, at);
    }
    switch (adapter.getType()) {
      case 'express': {
        const server = adapter.getHttpServer() as Server | undefined;
        const { routes, middlewareInFront } = bindExpressRoutes(instance, paths, serve);
        const { fastPath } = this.settings;
        const fast =
          routes.size > 0 &&
          (fastPath === true || (fastPath === 'auto' && !middlewareInFront)) &&
          installFastPath(server, routes, withExpressClientAddress(instance, serve));
        if (routes.size === 0) {
          this.logger.warn('MCP routes not found on the Express router; served through Nest');
        }
        // MCP requests that Express handles are spared its change of their prototypes. Those the
        // fast path serves never meet Express: built on its prototypes they would gain nothing
        // (docs/http.md, "Requests through Express").
        if (!fast) buildOnExpressPrototypes(server, instance);
        return;
      }
      case 'fastify': {
        const fastPath = this.fastifyFastPath(instance);
        bindFastifyRoutes(instance, paths, this.scope.mark.routeId, serve, fastPath);
        return;
      }
      default:
        this.logger.warn(`MCP routes on the ${adapter.getType()} adapter are served through Nest`);
    }
  }

  /* The Fastify fast path, unless `fastPath: false`. */
  private fastifyFastPath(instance: unknown): FastifyFastPath | undefined {
    const { fastPath } = this.settings;
    if (fastPath === false) return undefined;
    const adapter = this.adapterHost.httpAdapter;
    return FastifyFastPath.attach(adapter.getHttpServer() as Server | undefined, instance, {
      mode: fastPath,
      adapter,
      // Read at a route's first request: versioning is enabled any time before the app listens.
      routesByHeader: () => {
        const versioning = this.config?.getVersioning();
        return versioning !== undefined && versioning.type !== VersioningType.URI;
      },
      serve: this.router.serve.bind(this.router),
      onJudged: (path, isFast, reason) =>
        this.logger.debug(
          isFast
            ? `${path} is served ahead of Fastify`
            : `${path} is served through Fastify: ${reason}`,
        ),
    });
  }

  /* Several servers: exact paths, global prefix included (see McpRoutePaths). */
  private ownPaths(): McpRoutePaths {
    const { path, ssePairPath } = this.settings;
    if (!this.scope.several) return { streamable: path, ssePair: ssePairPath, exact: false };
    const prefix = this.config?.getGlobalPrefix();
    // Nest registers a prefixed root as `/api`, never `/api/`.
    const full = (own: string) => underGlobalPrefix(prefix, own).replace(/(.)\/+$/, '$1');
    return { streamable: full(path), ssePair: full(ssePairPath), exact: true };
  }

  /*
   * The HTTP server's timeouts are the whole app's: with several servers, the longest each
   * server needs, so none cuts another's uploads short of that server's own 408.
   */
  private timeoutLimits(): ServerTimeoutLimits {
    const all = this.scope
      .servers()
      .map(
        (server) =>
          this.scope.optionsOf<McpAuthenticationSettings>(server)?.limits ?? this.settings,
      );
    const longest = (key: keyof ServerTimeoutLimits) =>
      Math.max(this.settings[key], ...all.map((limits) => limits[key]));
    return {
      headersTimeoutMs: longest('headersTimeoutMs'),
      bodyTimeoutMs: longest('bodyTimeoutMs'),
      requestTimeoutMs: longest('requestTimeoutMs'),
    };
  }
}
