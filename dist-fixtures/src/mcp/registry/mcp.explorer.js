var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable, Logger } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, MetadataScanner } from '@nestjs/core';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import { resolveCompleter, resolveCompleters } from './completer.resolver.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { McpRegistry } from './mcp-registry.service.js';
import { createPromptEntry, createResourceEntry, createResourceTemplateEntry, createToolEntry, } from './registry-entry.factory.js';
/**
 * Finds `@McpTool` / `@McpResource` / `@McpResourceTemplate` / `@McpPrompt`
 * methods on providers at module init and registers them. Each method is
 * wrapped once, here, by Nest's `ExternalContextCreator` (context type
 * `'mcp'`), so the user's own guards and interceptors run on every call
 * without any per-call reflection.
 */
let McpExplorer = class McpExplorer {
    constructor(discovery, scanner, accessor, registry, contextCreator) {
        this.discovery = discovery;
        this.scanner = scanner;
        this.accessor = accessor;
        this.registry = registry;
        this.contextCreator = contextCreator;
        this.logger = new Logger('McpExplorer');
    }
    onModuleInit() {
        for (const wrapper of this.discovery.getProviders()) {
            const { instance } = wrapper;
            if (!instance || typeof instance !== 'object')
                continue;
            const proto = Object.getPrototypeOf(instance);
            if (!proto)
                continue;
            for (const method of this.scanner.getAllMethodNames(proto)) {
                this.explore(wrapper, instance, method);
            }
        }
    }
    explore(wrapper, instance, method) {
        const target = instance[method];
        const tool = this.accessor.getTool(target);
        const resource = this.accessor.getResource(target);
        const template = this.accessor.getResourceTemplate(target);
        const prompt = this.accessor.getPrompt(target);
        if (!tool && !resource && !template && !prompt)
            return;
        const source = `${instance.constructor.name}.${method}`;
        if (!wrapper.isDependencyTreeStatic()) {
            this.logger.warn(`${source} is not a singleton provider; MCP handlers must be. Skipped.`);
            return;
        }
        const handler = this.wrap(instance, target, method);
        if (tool) {
            const { name = method, input, output, completions, ...rest } = tool;
            const resolved = resolveCompleters(completions, instance, source);
            const def = {
                ...rest,
                name,
                inputSchema: input,
                outputSchema: output,
                handler,
                completions: resolved,
            };
            if (input === undefined)
                delete def.inputSchema;
            this.registry.addTool(createToolEntry(def, source));
        }
        if (resource) {
            const def = { ...resource, name: resource.name ?? method, handler };
            this.registry.addResource(createResourceEntry(def, source));
        }
        if (template) {
            const complete = resolveCompleters(template.complete, instance, source);
            const def = { ...template, name: template.name ?? method, handler, complete };
            this.registry.addResourceTemplate(createResourceTemplateEntry(def, source));
        }
        if (prompt) {
            const args = prompt.arguments?.map((arg) => ({
                ...arg,
                complete: resolveCompleter(arg.complete, instance, source),
            }));
            const def = { ...prompt, name: prompt.name ?? method, handler, arguments: args };
            this.registry.addPrompt(createPromptEntry(def, source));
        }
    }
    wrap(instance, target, method) {
        return this.contextCreator.create(instance, target, method, undefined, undefined, undefined, undefined, 
        // Exception filters are HTTP-shaped; tool errors are turned into results by the server.
        { guards: true, interceptors: true, filters: false }, MCP_CONTEXT_TYPE);
    }
};
McpExplorer = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [DiscoveryService,
        MetadataScanner,
        McpMetadataAccessor,
        McpRegistry,
        ExternalContextCreator])
], McpExplorer);
export { McpExplorer };
//# sourceMappingURL=mcp.explorer.js.map