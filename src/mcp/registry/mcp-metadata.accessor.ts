import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_RESOURCE_TEMPLATE_METADATA,
  MCP_TOOL_METADATA,
} from '../mcp.constants.js';
import type { McpPromptOptions } from './interfaces/prompt.interface.js';
import type {
  McpResourceOptions,
  McpResourceTemplateOptions,
} from './interfaces/resource.interface.js';
import type { McpToolOptions } from './interfaces/tool.interface.js';

/** A decorated method, as found on a provider's prototype. */
type MethodTarget = (...args: never[]) => unknown;

/** The only place that reads the registry decorators' metadata. */
@Injectable()
export class McpMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getTool(target: MethodTarget): McpToolOptions | undefined {
    return this.reflector.get(MCP_TOOL_METADATA, target);
  }

  getResource(target: MethodTarget): McpResourceOptions | undefined {
    return this.reflector.get(MCP_RESOURCE_METADATA, target);
  }

  getResourceTemplate(target: MethodTarget): McpResourceTemplateOptions | undefined {
    return this.reflector.get(MCP_RESOURCE_TEMPLATE_METADATA, target);
  }

  getPrompt(target: MethodTarget): McpPromptOptions | undefined {
    return this.reflector.get(MCP_PROMPT_METADATA, target);
  }
}
