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
import { InitializeRequestParamsSchema, SetLevelRequestParamsSchema, } from '@modelcontextprotocol/core';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import { negotiateProtocolVersion } from '../../protocol/protocol-version.js';
import { McpRegistry } from '../../registry/mcp-registry.service.js';
import { buildCapabilities } from '../capabilities.factory.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
/** `initialize`, `ping` and `logging/setLevel`: connection-level methods outside the seams. */
let McpLifecycleHandler = class McpLifecycleHandler {
    constructor(options, registry) {
        this.options = options;
        this.registry = registry;
    }
    initialize({ params, connection }) {
        const protocolVersion = negotiateProtocolVersion(params.protocolVersion);
        connection.protocolVersion = protocolVersion;
        connection.capabilities = params.capabilities;
        const result = {
            protocolVersion,
            capabilities: buildCapabilities(this.registry),
            serverInfo: { name: this.options.name, version: this.options.version },
        };
        if (this.options.instructions)
            result.instructions = this.options.instructions;
        return result;
    }
    ping() {
        return {};
    }
    setLevel({ params, connection }) {
        connection.logLevel = params.level;
        return {};
    }
};
__decorate([
    McpMethod('initialize', InitializeRequestParamsSchema),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Object)
], McpLifecycleHandler.prototype, "initialize", null);
__decorate([
    McpMethod('ping'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Object)
], McpLifecycleHandler.prototype, "ping", null);
__decorate([
    McpMethod('logging/setLevel', SetLevelRequestParamsSchema),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Object)
], McpLifecycleHandler.prototype, "setLevel", null);
McpLifecycleHandler = __decorate([
    Injectable(),
    __param(0, Inject(MCP_MODULE_OPTIONS)),
    __metadata("design:paramtypes", [Object, McpRegistry])
], McpLifecycleHandler);
export { McpLifecycleHandler };
//# sourceMappingURL=lifecycle.handler.js.map