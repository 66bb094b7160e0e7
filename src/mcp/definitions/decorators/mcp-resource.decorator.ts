import { SetMetadata } from '@nestjs/common';
import { MCP_RESOURCE_METADATA } from '../../core/mcp.constants.js';
import type { McpResourceOptions } from '../interfaces/resource.interface.js';

/**
 * Marks a provider method as a static MCP resource. The method receives
 * `(uri, variables, ctx)` and returns text, bytes or a `ReadResourceResult`.
 *
 * @example
 * @McpResource({ uri: 'notes://index', mimeType: 'application/json' })
 * index() { return JSON.stringify(this.store.list()); }
 * @publicApi
 */
export const McpResource = (options: McpResourceOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_METADATA, options);
