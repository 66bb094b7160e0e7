var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { CallToolRequestParamsSchema, PaginatedRequestParamsSchema, } from '@modelcontextprotocol/core';
import { McpAuthorizationService } from '../../authorizer/mcp-authorization.service.js';
import { ReadSeam, ToolSeam } from '../../authorizer/seam.decorators.js';
import { nextCursorOf, paginate } from '../../protocol/pagination.js';
import { McpInvalidParamsError } from '../../protocol/mcp.errors.js';
import { McpRegistry } from '../../registry/mcp-registry.service.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
import { McpToolInvoker } from '../tools/tool-invoker.service.js';
import { McpPageSize } from './page-size.provider.js';
/** `tools/list` (read seam, then per-tool visibility) and `tools/call` (tool seam). */
let McpToolsHandler = class McpToolsHandler {
    constructor(registry, authorization, invoker, pageSize) {
        this.registry = registry;
        this.authorization = authorization;
        this.invoker = invoker;
        this.pageSize = pageSize;
    }
    async list(request) {
        const visible = await this.visibleTools(request);
        const page = paginate(visible, request.params?.cursor, this.pageSize.value);
        return { tools: page.items.map((entry) => entry.tool), ...nextCursorOf(page) };
    }
    async call(request) {
        const entry = this.registry.tool(request.params.name);
        if (!entry)
            throw new McpInvalidParamsError(`Unknown tool: ${request.params.name}`);
        return this.invoker.run(entry, request.params.arguments ?? {}, request);
    }
    /**
     * The tools this caller may call: those whose decision for empty arguments
     * is allow or ask (an ask tool is callable with approval). A deny, or an
     * authorizer that throws, hides just that tool.
     */
    async visibleTools(request) {
        const context = { connId: request.connection.id, transport: request.transport };
        const entries = this.registry.tools();
        const decisions = await Promise.all(entries.map((entry) => this.authorization.decideTool(entry.tool.name, {}, context, entry.sensitive)));
        return entries.filter((_, index) => decisions[index].kind !== 'deny');
    }
};
__decorate([
    McpMethod('tools/list', PaginatedRequestParamsSchema),
    ReadSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], McpToolsHandler.prototype, "list", null);
__decorate([
    McpMethod('tools/call', CallToolRequestParamsSchema),
    ToolSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], McpToolsHandler.prototype, "call", null);
McpToolsHandler = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpRegistry,
        McpAuthorizationService,
        McpToolInvoker,
        McpPageSize])
], McpToolsHandler);
export { McpToolsHandler };
//# sourceMappingURL=tools.handler.js.map