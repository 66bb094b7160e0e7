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
import { McpAuditService } from './audit/mcp-audit.service.js';
import { McpReadDeniedError } from './authorization.exceptions.js';
import { McpAuthorizationService } from './mcp-authorization.service.js';
/** Detail of a read denied because the read authorizer answered `ask`. */
export const INTERACTIVE_APPROVAL_UNSUPPORTED = 'interactive_approval_unsupported';
/**
 * The read seam, in front of every list, read, get, subscribe and completion
 * method. The authorizer gets the method name and only the parameters that
 * identify what is read. An `ask` denies without echoing its prompt.
 */
let ReadSeamGuard = class ReadSeamGuard {
    constructor(authorization, audit) {
        this.authorization = authorization;
        this.audit = audit;
    }
    async canActivate(context) {
        const request = context.getArgByIndex(0);
        const { method } = request;
        const authContext = { connId: request.connection.id, transport: request.transport };
        const decision = await this.authorization.decideRead(method, readArguments(request), authContext);
        const detail = decision.kind === 'deny'
            ? decision.reason
            : decision.kind === 'ask'
                ? INTERACTIVE_APPROVAL_UNSUPPORTED
                : undefined;
        this.audit.record({
            ...authContext,
            seam: 'read',
            name: method,
            decision: decision.kind,
            detail,
        });
        if (decision.kind !== 'allow')
            throw new McpReadDeniedError(method, detail);
        return true;
    }
};
ReadSeamGuard = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpAuthorizationService,
        McpAuditService])
], ReadSeamGuard);
export { ReadSeamGuard };
/** What the read authorizer is shown for each method. */
export function readArguments(request) {
    const params = request.params;
    switch (request.method) {
        case 'resources/read':
        case 'resources/subscribe':
        case 'resources/unsubscribe':
            return { uri: params.uri };
        case 'prompts/get':
            return { name: params.name, arguments: params.arguments ?? {} };
        case 'completion/complete':
            return { ref: params.ref };
        default:
            return {};
    }
}
//# sourceMappingURL=read-seam.guard.js.map