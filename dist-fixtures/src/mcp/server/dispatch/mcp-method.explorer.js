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
import { DiscoveryService, ExternalContextCreator, MetadataScanner, Reflector } from '@nestjs/core';
import { MCP_CONTEXT_TYPE, MCP_METHOD_METADATA } from '../../mcp.constants.js';
/**
 * Builds the method table from `@McpMethod()` handlers at init. Each handler
 * is wrapped by `ExternalContextCreator` with context type `'mcp'`, which is
 * what runs the seam guards applied by `@ToolSeam()` / `@ReadSeam()`.
 */
let McpMethodExplorer = class McpMethodExplorer {
    constructor(discovery, scanner, reflector, contextCreator) {
        this.discovery = discovery;
        this.scanner = scanner;
        this.reflector = reflector;
        this.contextCreator = contextCreator;
        this.table = new Map();
    }
    onModuleInit() {
        for (const { instance } of this.discovery.getProviders()) {
            if (!instance || typeof instance !== 'object')
                continue;
            const proto = Object.getPrototypeOf(instance);
            if (!proto)
                continue;
            for (const name of this.scanner.getAllMethodNames(proto)) {
                const target = instance[name];
                const meta = this.reflector.get(MCP_METHOD_METADATA, target);
                if (!meta)
                    continue;
                const invoke = this.contextCreator.create(instance, target, name, undefined, undefined, undefined, undefined, { guards: true, interceptors: true, filters: false }, MCP_CONTEXT_TYPE);
                this.table.set(meta.method, { params: meta.params, invoke });
            }
        }
    }
    route(method) {
        return this.table.get(method);
    }
};
McpMethodExplorer = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [DiscoveryService,
        MetadataScanner,
        Reflector,
        ExternalContextCreator])
], McpMethodExplorer);
export { McpMethodExplorer };
//# sourceMappingURL=mcp-method.explorer.js.map