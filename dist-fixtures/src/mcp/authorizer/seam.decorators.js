import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { MCP_SEAM_METADATA } from '../mcp.constants.js';
import { ReadSeamGuard } from './read-seam.guard.js';
import { ToolSeamGuard } from './tool-seam.guard.js';
/**
 * Puts a server method handler behind the tool seam (used on `tools/call`).
 *
 * @example
 * @McpMethod('tools/call', CallToolRequestParamsSchema)
 * @ToolSeam()
 * call(request: McpRequest<CallParams>) { ... }
 */
export const ToolSeam = () => applyDecorators(SetMetadata(MCP_SEAM_METADATA, 'tool'), UseGuards(ToolSeamGuard));
/**
 * Puts a server method handler behind the read seam (lists, reads, gets,
 * subscriptions, completion).
 *
 * @example
 * @McpMethod('resources/read', ReadResourceRequestParamsSchema)
 * @ReadSeam()
 * read(request: McpRequest<ReadParams>) { ... }
 */
export const ReadSeam = () => applyDecorators(SetMetadata(MCP_SEAM_METADATA, 'read'), UseGuards(ReadSeamGuard));
//# sourceMappingURL=seam.decorators.js.map