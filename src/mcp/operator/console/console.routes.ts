import { Controller, Get, Post, type Type } from '@nestjs/common';
import { CONSOLE_ROUTES } from './console.controller.js';
import type { McpConsoleSettings } from './console-settings.js';

/**
 * Gives the console controller its path and routes from the resolved
 * options, as `bindStreamablePath` does for the MCP endpoint: a provider
 * factory runs before Nest reads the routes at `init()`. Without a console
 * (no `approvals.console.oidc`), nothing is bound and no route exists.
 */
export function bindConsoleRoutes(controller: Type, settings: McpConsoleSettings): boolean {
  if (!settings.enabled) return false;
  Controller(settings.path)(controller);
  const proto = controller.prototype as object;
  for (const [name, verb, path] of CONSOLE_ROUTES) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
    (verb === 'get' ? Get : Post)(path)(proto, name, descriptor);
  }
  return true;
}
