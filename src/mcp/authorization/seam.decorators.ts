import { UseGuards } from '@nestjs/common';
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
export const ToolSeam = (): MethodDecorator => UseGuards(ToolSeamGuard);

/**
 * Puts a server method handler behind the read seam (lists, reads, gets,
 * subscriptions, completion).
 *
 * @example
 * @McpMethod('resources/read', ReadResourceRequestParamsSchema)
 * @ReadSeam()
 * read(request: McpRequest<ReadParams>) { ... }
 */
export const ReadSeam = (): MethodDecorator => UseGuards(ReadSeamGuard);
