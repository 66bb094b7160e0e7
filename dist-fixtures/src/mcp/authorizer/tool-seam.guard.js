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
import { McpRegistry } from '../registry/mcp-registry.service.js';
import { McpAuditService } from './audit/mcp-audit.service.js';
import { McpToolApprovalRequiredException, McpToolDeniedException, } from './authorization.exceptions.js';
import { McpAuthorizationService } from './mcp-authorization.service.js';
/**
 * The tool seam, in front of `tools/call`. It runs before input validation, so
 * the authorizer sees the raw arguments and a denied caller learns nothing
 * about the tool's schema (or whether an unlisted tool exists).
 */
let ToolSeamGuard = class ToolSeamGuard {
    constructor(authorization, registry, audit) {
        this.authorization = authorization;
        this.registry = registry;
        this.audit = audit;
    }
    async canActivate(context) {
        const request = context.getArgByIndex(0);
        const { name } = request.params;
        const args = request.params.arguments ?? {};
        const connId = request.connection.id;
        const authContext = { connId, transport: request.transport };
        const tool = this.registry.tool(name);
        const decision = await this.authorization.decideTool(name, args, authContext, !!tool?.sensitive);
        const detail = decision.kind === 'deny'
            ? decision.reason
            : decision.kind === 'ask'
                ? decision.prompt
                : undefined;
        this.audit.record({ ...authContext, seam: 'tool', name, decision: decision.kind, detail });
        if (decision.kind === 'deny')
            throw new McpToolDeniedException(name, 'deny', decision.reason);
        // An unknown tool is reported as such by the handler only once the seam let it through.
        if (decision.kind === 'ask' && tool)
            throw new McpToolApprovalRequiredException(name, decision.prompt);
        return true;
    }
};
ToolSeamGuard = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpAuthorizationService,
        McpRegistry,
        McpAuditService])
], ToolSeamGuard);
export { ToolSeamGuard };
//# sourceMappingURL=tool-seam.guard.js.map