import { Inject, type Type } from '@nestjs/common';
import { namedServerToken } from '../core/servers/server-tokens.js';
import { McpRegistry } from './mcp-registry.service.js';

/**
 * The DI token of a server's `McpRegistry`: the class itself without a name
 * (an app with one server), `name`'s own token otherwise.
 * @publicApi
 */
export function getMcpRegistryToken(name?: string): string | Type<McpRegistry> {
  return name === undefined ? McpRegistry : namedServerToken('McpRegistry', name);
}

/**
 * Injects the `McpRegistry` of the server named `name`; without a name, the
 * app's only server. Definitions added through it are served by that server only.
 *
 * @example
 * constructor(@InjectMcpRegistry('partner') private readonly registry: McpRegistry) {}
 *
 * @publicApi
 */
export function InjectMcpRegistry(name?: string): PropertyDecorator & ParameterDecorator {
  return Inject(getMcpRegistryToken(name));
}
