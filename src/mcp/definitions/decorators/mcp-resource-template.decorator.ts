import { SetMetadata } from '@nestjs/common';
import { MCP_RESOURCE_TEMPLATE_METADATA } from '../../core/mcp.constants.js';
import type { McpResourceTemplateOptions } from '../interfaces/resource.interface.js';

/**
 * Marks a provider method as an MCP resource template. The method receives
 * `(uri, variables, ctx)` with the variables the URI matched.
 *
 * @example
 * @McpResourceTemplate({ uriTemplate: 'notes://{id}', completions: { id: (v) => ids(v) } })
 * note(uri: string, { id }: Record<string, string>) { ... }
 * @publicApi
 */
export const McpResourceTemplate = (options: McpResourceTemplateOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options);
