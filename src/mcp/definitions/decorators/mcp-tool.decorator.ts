import { SetMetadata } from '@nestjs/common';
import { MCP_TOOL_METADATA } from '../../core/mcp.constants.js';
import type { McpToolOptions } from '../interfaces/tool.interface.js';

/**
 * Marks a provider method as an MCP tool. The method receives the validated
 * arguments and an `McpToolContext`; guards and interceptors declared on it
 * with `@UseGuards()` / `@UseInterceptors()` run on every call.
 *
 * @example
 * @McpTool({ description: 'Find notes by text', inputSchema: SearchNotesDto })
 * search(args: SearchNotesDto, ctx: McpToolContext) { ... }
 * @publicApi
 */
export const McpTool = (options: McpToolOptions): MethodDecorator =>
  SetMetadata(MCP_TOOL_METADATA, options);
