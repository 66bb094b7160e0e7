import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthorizationSettings } from '../../authorization/authorization-settings.interface.js';
import { Inject, Injectable } from '@nestjs/common';
import {
  InitializeRequestParamsSchema,
  SetLevelRequestParamsSchema,
} from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { negotiateProtocolVersion } from '../../core/protocol/protocol-version.js';
import { McpRegistry } from '../../definitions/mcp-registry.service.js';
import { buildCapabilities } from '../capabilities.factory.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';

type InitializeParams = z.infer<typeof InitializeRequestParamsSchema>;
type SetLevelParams = z.infer<typeof SetLevelRequestParamsSchema>;

/** `initialize`, `ping` and `logging/setLevel`: connection-level methods outside the seams. */
@Injectable()
export class McpLifecycleHandler {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpAuthorizationSettings,
    private readonly registry: McpRegistry,
  ) {}

  @McpMethod('initialize', InitializeRequestParamsSchema)
  initialize({ params, connection }: McpRequest<InitializeParams>): object {
    const protocolVersion = negotiateProtocolVersion(params.protocolVersion);
    connection.protocolVersion = protocolVersion;
    connection.capabilities = params.capabilities;
    const result: Record<string, unknown> = {
      protocolVersion,
      capabilities: buildCapabilities(this.registry),
      serverInfo: this.options.serverInfo,
    };
    if (this.options.instructions) result.instructions = this.options.instructions;
    return result;
  }

  @McpMethod('ping')
  ping(): object {
    return {};
  }

  @McpMethod('logging/setLevel', SetLevelRequestParamsSchema)
  setLevel({ params, connection }: McpRequest<SetLevelParams>): object {
    connection.logLevel = params.level;
    return {};
  }
}
