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
import { GetPromptRequestParamsSchema, PaginatedRequestParamsSchema, } from '@modelcontextprotocol/core';
import { ReadSeam } from '../../authorizer/seam.decorators.js';
import { McpInvalidParamsError } from '../../protocol/mcp.errors.js';
import { nextCursorOf, paginate } from '../../protocol/pagination.js';
import { McpRegistry } from '../../registry/mcp-registry.service.js';
import { createRequestScope } from '../context/request-context.factory.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
import { normalizePromptResult } from '../results/prompt-result.normalizer.js';
import { McpPageSize } from './page-size.provider.js';
/** `prompts/list` and `prompts/get`, behind the read seam. */
let McpPromptsHandler = class McpPromptsHandler {
    constructor(registry, pageSize) {
        this.registry = registry;
        this.pageSize = pageSize;
    }
    list(request) {
        const page = paginate(this.registry.prompts(), request.params?.cursor, this.pageSize.value);
        return { prompts: page.items.map((entry) => entry.prompt), ...nextCursorOf(page) };
    }
    async get(request) {
        const { name } = request.params;
        const args = request.params.arguments ?? {};
        const entry = this.registry.prompt(name);
        if (!entry)
            throw new McpInvalidParamsError(`Unknown prompt: ${name}`);
        const missing = entry.arguments.filter((arg) => arg.required && args[arg.name] === undefined);
        if (missing.length > 0) {
            const names = missing.map((arg) => arg.name).join(', ');
            throw new McpInvalidParamsError(`Missing required arguments for prompt ${name}: ${names}`);
        }
        const scope = createRequestScope(request);
        try {
            return normalizePromptResult(await entry.invoke(args, scope.context), entry.prompt.description);
        }
        finally {
            scope.end();
        }
    }
};
__decorate([
    McpMethod('prompts/list', PaginatedRequestParamsSchema),
    ReadSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Object)
], McpPromptsHandler.prototype, "list", null);
__decorate([
    McpMethod('prompts/get', GetPromptRequestParamsSchema),
    ReadSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], McpPromptsHandler.prototype, "get", null);
McpPromptsHandler = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpRegistry,
        McpPageSize])
], McpPromptsHandler);
export { McpPromptsHandler };
//# sourceMappingURL=prompts.handler.js.map