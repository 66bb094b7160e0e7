import { Injectable } from '@nestjs/common';
import { McpRegistry } from '../definitions/mcp-registry.service.js';
import { McpMethodExplorer } from '../engine/dispatch/mcp-method.explorer.js';
import { HANDLED_NOTIFICATIONS } from '../engine/dispatch/mcp-notifications.handler.js';

/** What a tool or prompt name no registry entry holds is labelled as. */
export const UNKNOWN_NAME = '_unknown';

/**
 * What a method the server does not serve, or a protocol version it does not
 * speak, is labelled as (OpenTelemetry's value for an unknown method).
 */
export const OTHER_VALUE = '_OTHER';

/**
 * Which names a request may put on a metric or span as it sent them: only
 * the server's own, the methods it serves and the tools and prompts it
 * registered. A client chooses the names it sends; labelled as sent, every
 * name it makes up would be a new series on each histogram, and enough of
 * them push the real tools into the SDK's overflow. A made-up name is one
 * value instead (`_unknown`, or `_OTHER` for a method), so the series a
 * server has stay bounded by what it registered.
 */
export interface McpRegisteredNames {
  method(name: string): boolean;
  tool(name: string): boolean;
  prompt(name: string): boolean;
}

/** The names this server has, looked up at the time of each request (tools come and go). */
@Injectable()
export class McpRegistryNames implements McpRegisteredNames {
  constructor(
    private readonly registry: McpRegistry,
    private readonly methods: McpMethodExplorer,
  ) {}

  method(name: string): boolean {
    return this.methods.route(name) !== undefined || HANDLED_NOTIFICATIONS.has(name);
  }

  tool(name: string): boolean {
    return this.registry.tool(name) !== undefined;
  }

  prompt(name: string): boolean {
    return this.registry.prompt(name) !== undefined;
  }
}
