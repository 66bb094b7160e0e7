import { Inject, type Type } from '@nestjs/common';
import { namedServerToken } from '../core/servers/server-tokens.js';
import { McpWarden } from './mcp-warden.service.js';

/**
 * The DI token of a server's `McpWarden`: the class itself without a name (an
 * app with one server), `name`'s own token otherwise (`forRoot({ name })`).
 * @publicApi
 */
export function getMcpWardenToken(name?: string): string | Type<McpWarden> {
  return name === undefined ? McpWarden : namedServerToken('McpWarden', name);
}

/**
 * Injects the `McpWarden` of the server named `name`; without a name, the
 * app's only server. An app with several servers names the one it means.
 *
 * @example
 * constructor(@InjectMcpWarden('admin') private readonly admin: McpWarden) {}
 *
 * @publicApi
 */
export function InjectMcpWarden(name?: string): PropertyDecorator & ParameterDecorator {
  return Inject(getMcpWardenToken(name));
}
