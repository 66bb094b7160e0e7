var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable } from '@nestjs/common';
import { McpHttpError } from '../errors/mcp-http.error.js';
import { MCP_HTTP_OPTIONS } from '../http-options.js';
import { OriginPolicy } from './origin-policy.js';
/** Validates `Host` and `Origin` on every MCP route: foreign → 403 with a JSON-RPC body. */
let McpOriginGuard = class McpOriginGuard {
    constructor(options) {
        this.policy = new OriginPolicy(options.allowedHosts, options.allowedOrigins);
    }
    canActivate(context) {
        const req = context.switchToHttp().getRequest();
        const refusal = this.policy.refusal(req.headers.host, req.headers.origin);
        if (refusal)
            throw new McpHttpError(403, `Forbidden: ${refusal}`);
        return true;
    }
};
McpOriginGuard = __decorate([
    Injectable(),
    __param(0, Inject(MCP_HTTP_OPTIONS)),
    __metadata("design:paramtypes", [Object])
], McpOriginGuard);
export { McpOriginGuard };
//# sourceMappingURL=origin.guard.js.map