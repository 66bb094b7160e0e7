import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE } from '../../mcp.constants.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import type { McpModuleOptions } from '../../mcp-options.interface.js';

/** The page size of every list method, resolved once from the options. */
@Injectable()
export class McpPageSize {
  readonly value: number;

  constructor(@Inject(MCP_MODULE_OPTIONS) options: McpModuleOptions) {
    const size = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.value = Number.isInteger(size) && size > 0 ? size : DEFAULT_PAGE_SIZE;
  }
}
