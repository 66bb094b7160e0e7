import { Controller, type Type } from '@nestjs/common';
import type { McpHttpSettings } from '../http-settings.js';

/**
 * Gives the Streamable HTTP controller its path from the resolved options.
 * It runs as a provider factory: providers are built when the app is created,
 * and Nest reads controller paths later, when it registers the routes at
 * `init()`, so `forRootAsync`'s path is known by then.
 */
export function bindStreamablePath(controller: Type, settings: McpHttpSettings): true {
  Controller(settings.path)(controller);
  return true;
}
