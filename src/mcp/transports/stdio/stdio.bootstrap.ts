import type { DynamicModule, INestApplicationContext, LoggerService, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { messageShapeBounds } from '../../core/decoding/json-message.decoder.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../authentication/authentication-settings.interface.js';
import type { McpWarden } from '../../engine/mcp-warden.service.js';
import { getMcpWardenToken } from '../../engine/inject-mcp-warden.decorator.js';
import { getMcpOptionsToken } from '../../core/servers/server-tokens.js';
import { McpServerScope } from '../../core/servers/mcp-server-scope.service.js';
import { StderrLogger } from './stderr.logger.js';
import { McpStdioTransport, type McpStdioTransportOptions } from './stdio.transport.js';

/**
 * Options of `serveStdio`: the transport's, and the app's logger.
 * @publicApi
 */
export interface McpServeStdioOptions extends McpStdioTransportOptions {
  /** The app's logger; it must not write to stdout. Default: Nest's console logger on stderr. */
  logger?: LoggerService;
  /**
   * Which server to serve, by `name`, in an app with several. Default: the
   * only server, or else the one that declares `transport: 'stdio'`.
   */
  server?: string;
}

/**
 * Boots `module` as an application context (no HTTP server), logging to
 * stderr, and serves MCP over stdin/stdout until stdin ends or SIGTERM/SIGINT
 * arrives; in-flight calls finish before the app closes.
 *
 * @example
 * await serveStdio(AppModule.forStdio());
 */
export async function serveStdio(
  module: Type | DynamicModule,
  { logger = new StderrLogger('Nest'), server, ...options }: McpServeStdioOptions = {},
): Promise<void> {
  const app = await NestFactory.createApplicationContext(module, { logger });
  const name = server ?? stdioServerOf(app);
  const { limits } = app.get<McpAuthenticationSettings>(
    name === undefined ? MCP_OPTIONS : getMcpOptionsToken(name),
  );
  const transport = new McpStdioTransport(app.get<McpWarden>(getMcpWardenToken(name)), {
    maxLineBytes: limits.maxLineBytes,
    maxInFlight: limits.maxInFlightPerConnection,
    shapeBounds: messageShapeBounds(limits),
    ...options,
  });
  const stop = () => transport.stop();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await transport.run();
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await app.close();
  }
}

/* The server stdio serves when none is named: the only one, or the one declaring stdio. */
function stdioServerOf(app: INestApplicationContext): string | undefined {
  const scope = app.get(McpServerScope);
  if (!scope.several) return undefined;
  const stdio = scope
    .servers()
    .filter((server) => scope.optionsOf<{ transport: string }>(server)?.transport === 'stdio')
    .map((server) => scope.nameOf(server));
  if (stdio.length === 1) return stdio[0];
  throw new Error(
    `serveStdio: this app has servers ${scope.names().join(', ')}; ` +
      "name the one to serve: serveStdio(module, { server: 'name' })",
  );
}
