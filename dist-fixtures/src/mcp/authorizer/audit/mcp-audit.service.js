var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Injectable } from '@nestjs/common';
import { Subject } from 'rxjs';
/** The stream of audit events; exposed to users as `McpServer.audit$`. */
let McpAuditService = class McpAuditService {
    constructor() {
        this.subject = new Subject();
        this.events$ = this.subject.asObservable();
    }
    record(event) {
        // Skip building the event when nobody listens: this runs on every call.
        if (!this.subject.observed)
            return;
        this.subject.next({ time: new Date().toISOString(), ...event });
    }
};
McpAuditService = __decorate([
    Injectable()
], McpAuditService);
export { McpAuditService };
//# sourceMappingURL=mcp-audit.service.js.map