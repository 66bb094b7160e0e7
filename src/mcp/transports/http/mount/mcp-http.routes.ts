import { Controller } from '@nestjs/common';
import type { McpHttpSettings } from '../http-settings.js';
import type { McpHttpControllers } from './mcp-http.controllers.js';

/**
 * Gives the MCP controllers their paths from the resolved options: the
 * Streamable endpoint at `http.path`, the SSE pair under `http.ssePairPath`.
 * It runs as a provider factory: providers are built when the app is created,
 * and Nest reads controller paths later, when it registers the routes at
 * `init()`, so `forRootAsync`'s paths are known by then.
 */
export function bindControllerPaths(
  controllers: McpHttpControllers,
  settings: McpHttpSettings,
): true {
  Controller(settings.path)(controllers.streamable);
  Controller(settings.ssePairPath || '/')(controllers.ssePair);
  return true;
}
