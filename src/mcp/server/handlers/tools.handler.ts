import { Injectable } from '@nestjs/common';
import {
  CallToolRequestParamsSchema,
  PaginatedRequestParamsSchema,
} from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { McpAuthorizationService } from '../../authorizer/mcp-authorization.service.js';
import { ReadSeam, ToolSeam } from '../../authorizer/seam.decorators.js';
import { nextCursorOf, paginate } from '../../protocol/pagination.js';
import { McpInvalidParamsError } from '../../protocol/mcp.errors.js';
import type { McpToolEntry } from '../../registry/interfaces/registry-entry.interface.js';
import { McpRegistry } from '../../registry/mcp-registry.service.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { McpToolInvoker } from '../tools/tool-invoker.service.js';
import { McpPageSize } from './page-size.provider.js';

type ListParams = z.infer<typeof PaginatedRequestParamsSchema>;
type CallParams = z.infer<typeof CallToolRequestParamsSchema>;

/** `tools/list` (read seam, then per-tool visibility) and `tools/call` (tool seam). */
@Injectable()
export class McpToolsHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly authorization: McpAuthorizationService,
    private readonly invoker: McpToolInvoker,
    private readonly pageSize: McpPageSize,
  ) {}

  @McpMethod('tools/list', PaginatedRequestParamsSchema)
  @ReadSeam()
  async list(request: McpRequest<ListParams>): Promise<object> {
    const visible = await this.visibleTools(request);
    const page = paginate(visible, request.params?.cursor, this.pageSize.value);
    return { tools: page.items.map((entry) => entry.tool), ...nextCursorOf(page) };
  }

  @McpMethod('tools/call', CallToolRequestParamsSchema)
  @ToolSeam()
  async call(request: McpRequest<CallParams>): Promise<object> {
    const entry = this.registry.tool(request.params.name);
    if (!entry) throw new McpInvalidParamsError(`Unknown tool: ${request.params.name}`);
    return this.invoker.run(entry, request.params.arguments ?? {}, request);
  }

  /** The tools this caller may call (see `McpAuthorizationService.isToolVisible`). */
  async visibleTools(request: McpRequest): Promise<McpToolEntry[]> {
    const context = { connId: request.connection.id, transport: request.transport };
    const entries = this.registry.tools();
    const visible = await Promise.all(
      entries.map((entry) =>
        this.authorization.isToolVisible(entry.tool.name, entry.sensitive, context),
      ),
    );
    return entries.filter((_, index) => visible[index]);
  }
}
