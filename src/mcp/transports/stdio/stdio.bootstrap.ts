import type { DynamicModule, LoggerService, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { messageShapeBounds } from '../../core/decoding/json-message.decoder.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../authentication/authentication-settings.interface.js';
import { McpWarden } from '../../engine/mcp-warden.service.js';
import { StderrLogger } from './stderr.logger.js';
import { McpStdioTransport, type McpStdioTransportOptions } from './stdio.transport.js';

/**
 * Options of `serveStdio`: the transport's, and the app's logger.
 * @publicApi
 */
export interface McpServeStdioOptions extends McpStdioTransportOptions {
  /** The app's logger; it must not write to stdout. Default: Nest's console logger on stderr. */
  logger?: LoggerService;
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
  { logger = new StderrLogger('Nest'), ...options }: McpServeStdioOptions = {},
): Promise<void> {
  const app = await NestFactory.createApplicationContext(module, { logger });
  const { limits } = app.get<McpAuthenticationSettings>(MCP_OPTIONS);
  const transport = new McpStdioTransport(app.get(McpWarden), {
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
