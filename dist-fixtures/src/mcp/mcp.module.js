var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { McpAuthorizerModule } from './authorizer/mcp-authorizer.module.js';
import { MCP_MODULE_OPTIONS, McpConfigurableModuleClass } from './mcp.module-definition.js';
import { McpRegistryModule } from './registry/mcp-registry.module.js';
import { McpServerModule } from './server/mcp-server.module.js';
/**
 * The MCP Warden framework: registry, authorization seams and server.
 *
 * @example
 * @Module({
 *   imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0', authorizer, readAuthorizer })],
 *   providers: [NotesTools],
 * })
 * export class AppModule {}
 */
let McpModule = class McpModule extends McpConfigurableModuleClass {
};
McpModule = __decorate([
    Module({
        imports: [McpRegistryModule, McpAuthorizerModule, McpServerModule],
        // The options are exported so the feature modules (and the app) can inject them.
        exports: [MCP_MODULE_OPTIONS, McpRegistryModule, McpServerModule],
    })
], McpModule);
export { McpModule };
//# sourceMappingURL=mcp.module.js.map