import { Inject, Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost } from '@nestjs/core';
import { underGlobalPrefix } from '../../core/http/global-prefix.js';
import { ownBodiesUnder, postReadingOwnBody } from '../../core/http/own-body.routes.js';
import type { McpConsoleSettings } from './console-settings.js';
import { CONSOLE_ROUTES, ConsoleEndpoint } from './console.endpoint.js';
import { MCP_CONSOLE_SETTINGS } from './console.constants.js';

/**
 * Mounts the console's routes on the HTTP adapter when a console is
 * configured (`approvals.console.oidc`), and only then: at module init, after
 * Nest's routes and before its 404 handler, under the global prefix. Not a
 * controller, because a controller is declared with the module, before
 * `forRootAsync`'s factory says whether there is a console; one declared
 * anyway would show in Nest's route log of every app. Like the MCP endpoint
 * and the webhook links, the console answers for itself (its own sign-in,
 * CSRF and headers), so the app's global guards and interceptors, written
 * for its own routes, are not in front of it; its middleware, CORS and
 * prefix are. Nor are the app's body parsers: a POST's body is read by the
 * console itself, bounded, once its cheap checks pass.
 */
@Injectable()
export class McpConsoleRoutes implements OnModuleInit {
  private readonly logger = new Logger('McpConsole');

  constructor(
    @Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings,
    private readonly adapterHost: HttpAdapterHost,
    private readonly endpoint: ConsoleEndpoint,
    @Optional() private readonly config?: ApplicationConfig,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!this.settings.enabled || !adapter) return;
    const base = underGlobalPrefix(this.config?.getGlobalPrefix(), this.settings.path);
    // Its POSTs read their own bodies (ConsoleBodyReader), so the app's parsers stay off them.
    ownBodiesUnder(adapter, base);
    for (const [name, verb, path] of CONSOLE_ROUTES) {
      const url = path ? `${base}/${path}` : base;
      const handler = (req: object, res: object) => void this.endpoint[name](req, res);
      if (verb === 'get') adapter.get(url, handler);
      else postReadingOwnBody(adapter, url, handler);
    }
    this.logger.log(`Operator console at ${base}`);
  }
}
