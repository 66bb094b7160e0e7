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
import { DEFAULT_PAGE_SIZE } from '../../mcp.constants.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
/** The page size of every list method, resolved once from the options. */
let McpPageSize = class McpPageSize {
    constructor(options) {
        const size = options.pageSize ?? DEFAULT_PAGE_SIZE;
        this.value = Number.isInteger(size) && size > 0 ? size : DEFAULT_PAGE_SIZE;
    }
};
McpPageSize = __decorate([
    Injectable(),
    __param(0, Inject(MCP_MODULE_OPTIONS)),
    __metadata("design:paramtypes", [Object])
], McpPageSize);
export { McpPageSize };
//# sourceMappingURL=page-size.provider.js.map