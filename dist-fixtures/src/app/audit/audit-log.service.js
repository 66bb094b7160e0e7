var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable, } from '@nestjs/common';
import { McpServer } from '../../index.js';
/**
 * Writes every audit event as one JSON line to stderr: the service's log,
 * never stdout (which belongs to the protocol in stdio mode).
 */
let AuditLogService = class AuditLogService {
    constructor(server) {
        this.server = server;
    }
    onApplicationBootstrap() {
        this.subscription = this.server.audit$.subscribe((event) => {
            process.stderr.write(JSON.stringify({ audit: event }) + '\n');
        });
    }
    onApplicationShutdown() {
        this.subscription?.unsubscribe();
    }
};
AuditLogService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpServer])
], AuditLogService);
export { AuditLogService };
//# sourceMappingURL=audit-log.service.js.map