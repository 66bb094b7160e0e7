import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_RESOURCE_TEMPLATE_METADATA,
  MCP_TOOL_METADATA,
} from '../core/mcp.constants.js';
import type { McpPromptOptions } from './interfaces/prompt.interface.js';
import type {
  McpResourceOptions,
  McpResourceTemplateMetadata,
  McpResourceTemplateOptions,
} from './interfaces/resource.interface.js';
import type { McpToolMetadata, McpToolOptions } from './interfaces/tool.interface.js';
import { McpDefinitionError } from './registry.errors.js';

/** A decorated method, as found on a provider's prototype. */
type MethodTarget = (...args: never[]) => unknown;

/**
 * The only place that reads the registry decorators' metadata. It hands out
 * the current option names only, so a deprecated alias is resolved here and
 * nowhere else.
 */
@Injectable()
export class McpMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getTool(target: MethodTarget): McpToolMetadata | undefined {
    const options: McpToolOptions | undefined = this.reflector.get(MCP_TOOL_METADATA, target);
    if (!options) return undefined;
    const { input, output, ...current } = options;
    const inputSchema = alias('tool', target, { inputSchema: current.inputSchema, input });
    const outputSchema = alias('tool', target, { outputSchema: current.outputSchema, output });
    return dropUndefined({ ...current, inputSchema, outputSchema });
  }

  getResource(target: MethodTarget): McpResourceOptions | undefined {
    return this.reflector.get(MCP_RESOURCE_METADATA, target);
  }

  getResourceTemplate(target: MethodTarget): McpResourceTemplateMetadata | undefined {
    const options: McpResourceTemplateOptions | undefined = this.reflector.get(
      MCP_RESOURCE_TEMPLATE_METADATA,
      target,
    );
    if (!options) return undefined;
    const { complete, ...current } = options;
    const completions = alias('resource template', target, {
      completions: current.completions,
      complete,
    });
    return dropUndefined({ ...current, completions });
  }

  getPrompt(target: MethodTarget): McpPromptOptions | undefined {
    return this.reflector.get(MCP_PROMPT_METADATA, target);
  }
}

/**
 * The value under the current name (the first key) or its deprecated alias
 * (the second); two different values are an error rather than a silent pick.
 */
function alias<T>(
  kind: string,
  target: MethodTarget,
  names: Record<string, T | undefined>,
): T | undefined {
  const [[name, value], [oldName, old]] = Object.entries(names);
  if (value !== undefined && old !== undefined && value !== old) {
    const problem = `set ${name} or its deprecated alias ${oldName}, not both`;
    throw new McpDefinitionError(kind, target.name, problem);
  }
  return value ?? old;
}

function dropUndefined<T extends object>(options: T): T {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as T;
}
