import { SetMetadata } from '@nestjs/common';
import { MCP_RESOURCE_TEMPLATE_METADATA } from '../../mcp.constants.js';
/**
 * Marks a provider method as an MCP resource template. The method receives
 * `(uri, variables, ctx)` with the variables the URI matched.
 *
 * @example
 * @McpResourceTemplate({ uriTemplate: 'notes://{id}', complete: { id: (v) => ids(v) } })
 * note(uri: string, { id }: Record<string, string>) { ... }
 */
export const McpResourceTemplate = (options) => SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options);
//# sourceMappingURL=mcp-resource-template.decorator.js.map