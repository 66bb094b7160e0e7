var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { McpRegistryModule } from '../registry/mcp-registry.module.js';
import { McpAuditService } from './audit/mcp-audit.service.js';
import { McpAuthorizationService } from './mcp-authorization.service.js';
import { ReadSeamGuard } from './read-seam.guard.js';
import { ToolSeamGuard } from './tool-seam.guard.js';
/** The two authorization seams: their guards, their decisions and the audit stream. */
let McpAuthorizerModule = class McpAuthorizerModule {
};
McpAuthorizerModule = __decorate([
    Module({
        imports: [McpRegistryModule],
        providers: [McpAuthorizationService, McpAuditService, ToolSeamGuard, ReadSeamGuard],
        exports: [McpAuthorizationService, McpAuditService, ToolSeamGuard, ReadSeamGuard],
    })
], McpAuthorizerModule);
export { McpAuthorizerModule };
//# sourceMappingURL=mcp-authorizer.module.js.map