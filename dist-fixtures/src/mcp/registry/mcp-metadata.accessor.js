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
import { Reflector } from '@nestjs/core';
import { MCP_PROMPT_METADATA, MCP_RESOURCE_METADATA, MCP_RESOURCE_TEMPLATE_METADATA, MCP_TOOL_METADATA, } from '../mcp.constants.js';
/** The only place that reads the registry decorators' metadata. */
let McpMetadataAccessor = class McpMetadataAccessor {
    constructor(reflector) {
        this.reflector = reflector;
    }
    getTool(target) {
        return this.reflector.get(MCP_TOOL_METADATA, target);
    }
    getResource(target) {
        return this.reflector.get(MCP_RESOURCE_METADATA, target);
    }
    getResourceTemplate(target) {
        return this.reflector.get(MCP_RESOURCE_TEMPLATE_METADATA, target);
    }
    getPrompt(target) {
        return this.reflector.get(MCP_PROMPT_METADATA, target);
    }
};
McpMetadataAccessor = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Reflector])
], McpMetadataAccessor);
export { McpMetadataAccessor };
//# sourceMappingURL=mcp-metadata.accessor.js.map