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
import { PaginatedRequestParamsSchema, ReadResourceRequestParamsSchema, SubscribeRequestParamsSchema, UnsubscribeRequestParamsSchema, } from '@modelcontextprotocol/core';
import { ReadSeam } from '../../authorizer/seam.decorators.js';
import { McpResourceNotFoundError } from '../../protocol/mcp.errors.js';
import { nextCursorOf, paginate } from '../../protocol/pagination.js';
import { McpRegistry } from '../../registry/mcp-registry.service.js';
import { createRequestScope } from '../context/request-context.factory.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
import { normalizeResourceResult } from '../results/resource-result.normalizer.js';
import { McpPageSize } from './page-size.provider.js';
/** Resource listing, reading and subscriptions; every method is behind the read seam. */
let McpResourcesHandler = class McpResourcesHandler {
    constructor(registry, pageSize) {
        this.registry = registry;
        this.pageSize = pageSize;
    }
    list(request) {
        const entries = this.registry.resources();
        const page = paginate(entries, request.params?.cursor, this.pageSize.value);
        return { resources: page.items.map((entry) => entry.resource), ...nextCursorOf(page) };
    }
    listTemplates(request) {
        const entries = this.registry.templates();
        const page = paginate(entries, request.params?.cursor, this.pageSize.value);
        return { resourceTemplates: page.items.map((entry) => entry.template), ...nextCursorOf(page) };
    }
    async read(request) {
        const { uri } = request.params;
        const resource = this.registry.resource(uri);
        const matched = resource ? undefined : this.registry.matchTemplate(uri);
        if (!resource && !matched)
            throw new McpResourceNotFoundError(uri);
        const scope = createRequestScope(request);
        try {
            const value = resource
                ? await resource.invoke(uri, {}, scope.context)
                : await matched.entry.invoke(uri, matched.variables, scope.context);
            const mimeType = resource ? resource.resource.mimeType : matched.entry.template.mimeType;
            return normalizeResourceResult(value, uri, mimeType);
        }
        finally {
            scope.end();
        }
    }
    subscribe({ params, connection }) {
        connection.subscriptions.add(params.uri);
        return {};
    }
    unsubscribe({ params, connection }) {
        connection.subscriptions.delete(params.uri);
        return {};
    }
};
__decorate([
    McpMethod('resources/list', PaginatedRequestParamsSchema),
    ReadSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Object)
], McpResourcesHandler.prototype, "list", null);
__decorate([
    McpMethod('resources/templates/list', PaginatedRequestParamsSchema),
    ReadSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Object)
], McpResourcesHandler.prototype, "listTemplates", null);
__decorate([
    McpMethod('resources/read', ReadResourceRequestParamsSchema),
    ReadSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], McpResourcesHandler.prototype, "read", null);
__decorate([
    McpMethod('resources/subscribe', SubscribeRequestParamsSchema),
    ReadSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Object)
], McpResourcesHandler.prototype, "subscribe", null);
__decorate([
    McpMethod('resources/unsubscribe', UnsubscribeRequestParamsSchema),
    ReadSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Object)
], McpResourcesHandler.prototype, "unsubscribe", null);
McpResourcesHandler = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpRegistry,
        McpPageSize])
], McpResourcesHandler);
export { McpResourcesHandler };
//# sourceMappingURL=resources.handler.js.map