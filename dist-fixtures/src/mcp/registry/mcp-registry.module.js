var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { McpExplorer } from './mcp.explorer.js';
import { McpRegistry } from './mcp-registry.service.js';
/** Tool, resource and prompt definitions, discovered from decorators or added at runtime. */
let McpRegistryModule = class McpRegistryModule {
};
McpRegistryModule = __decorate([
    Module({
        imports: [DiscoveryModule],
        providers: [McpRegistry, McpMetadataAccessor, McpExplorer],
        exports: [McpRegistry],
    })
], McpRegistryModule);
export { McpRegistryModule };
//# sourceMappingURL=mcp-registry.module.js.map