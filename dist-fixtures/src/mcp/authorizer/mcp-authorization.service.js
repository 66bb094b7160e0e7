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
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { Authorizers } from './authorizers.js';
/** Detail of the deny given to a sensitive tool registered after boot with no authorizer. */
export const SENSITIVE_TOOL_UNGUARDED = 'sensitive_tool_unguarded';
/** Detail of the deny given when an authorizer throws (its error text never reaches the client). */
export const AUTHORIZER_FAILED = 'authorizer_failed';
/**
 * Evaluates the two seams' authorizers. Every path fails closed: an authorizer
 * that throws or rejects denies, and a sensitive tool with no tool authorizer
 * denies.
 */
let McpAuthorizationService = class McpAuthorizationService {
    constructor(options) {
        this.options = options;
        this.logger = new Logger('McpAuthorization');
    }
    /** True only when a tool authorizer is set and an operator chose it (`'configured'`). */
    authorizationConfigured() {
        return this.options.authorizer !== undefined && this.options.authorizerSource === 'configured';
    }
    /** True when the read seam has an authorizer. */
    readAuthorizationConfigured() {
        return this.options.readAuthorizer !== undefined;
    }
    /** Whether any tool authorizer is set (which lifts the sensitive-tool checks). */
    hasToolAuthorizer() {
        return this.options.authorizer !== undefined;
    }
    /** The tool seam's decision for `name` with `args`. Never throws. */
    async decideTool(name, args, context, sensitive) {
        if (sensitive && !this.hasToolAuthorizer()) {
            return { kind: 'deny', reason: SENSITIVE_TOOL_UNGUARDED };
        }
        return this.evaluate('tool', this.options.authorizer, name, args, context);
    }
    /** The read seam's decision for `method` with `args`. Never throws. */
    decideRead(method, args, context) {
        return this.evaluate('read', this.options.readAuthorizer, method, args, context);
    }
    async evaluate(seam, authorizer, name, args, context) {
        try {
            return normalize(await Authorizers.decide(authorizer, name, args, context));
        }
        catch (error) {
            this.logger.error(`${seam} authorizer failed for ${name}: ${error?.stack ?? error}`);
            return { kind: 'deny', reason: AUTHORIZER_FAILED };
        }
    }
};
McpAuthorizationService = __decorate([
    Injectable(),
    __param(0, Inject(MCP_MODULE_OPTIONS)),
    __metadata("design:paramtypes", [Object])
], McpAuthorizationService);
export { McpAuthorizationService };
/* An authorizer written in plain JS may return anything; only a well-formed allow allows. */
function normalize(decision) {
    const value = decision;
    if (value?.kind === 'allow')
        return { kind: 'allow' };
    if (value?.kind === 'ask')
        return { kind: 'ask', prompt: String(value.prompt ?? '') };
    if (value?.kind === 'deny')
        return { kind: 'deny', reason: String(value.reason ?? 'denied') };
    return { kind: 'deny', reason: 'invalid_decision' };
}
//# sourceMappingURL=mcp-authorization.service.js.map