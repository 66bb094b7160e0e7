import { Inject, Injectable } from '@nestjs/common';
import { DiscoverRequestSchema } from '@modelcontextprotocol/core';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../authentication/authentication-settings.interface.js';
import { McpRegistry } from '../../definitions/mcp-registry.service.js';
import { buildCapabilities } from '../../engine/capabilities.factory.js';
import { McpMethod } from '../../engine/dispatch/mcp-method.decorator.js';
import { SUPPORTED_MODERN_PROTOCOL_VERSIONS } from '../../core/protocol/era.constants.js';
import { TASKS_EXTENSION } from './tasks/tasks-extension.js';

/**
 * `server/discover`, the modern era's answer to `initialize`: the modern
 * revisions served (handshake-era versions are negotiated by `initialize`),
 * the capabilities and the instructions. Outside the seams, as `initialize` is.
 */
@Injectable()
export class McpDiscoverHandler {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpAuthenticationSettings,
    private readonly registry: McpRegistry,
  ) {}

  @McpMethod('server/discover', DiscoverRequestSchema.shape.params)
  discover(): object {
    const result: Record<string, unknown> = {
      supportedVersions: [...SUPPORTED_MODERN_PROTOCOL_VERSIONS],
      capabilities: this.capabilities(),
    };
    if (this.options.instructions) result.instructions = this.options.instructions;
    return result;
  }

  /* SEP-2663: the tasks extension is announced while a tool may run as a task. */
  private capabilities(): object {
    const capabilities = buildCapabilities(this.registry);
    const tasks = this.registry.tools().some((entry) => entry.task !== 'never');
    return tasks ? { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } } : capabilities;
  }
}
