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
import { isJsonObject, isRequestId } from '../../protocol/jsonrpc.js';
import { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';
/**
 * Client notifications, and client responses to server requests. None of
 * them is ever answered; unknown ones are ignored, as JSON-RPC requires.
 */
let McpNotificationsHandler = class McpNotificationsHandler {
    constructor(outbound) {
        this.outbound = outbound;
    }
    handle(method, params, connection) {
        switch (method) {
            case 'notifications/initialized':
                connection.initialized = true;
                return;
            case 'notifications/cancelled':
                return this.cancel(params, connection);
            default:
                return;
        }
    }
    /** A response to a server→client request (elicitation, sampling, roots). */
    response(message, connection) {
        this.outbound.answer(message, connection);
    }
    cancel(params, connection) {
        if (!isJsonObject(params) || !isRequestId(params.requestId))
            return;
        const reason = typeof params.reason === 'string' ? params.reason : 'cancelled by client';
        connection.inflight.get(params.requestId)?.abort(new Error(reason));
    }
};
McpNotificationsHandler = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpOutboundRequests])
], McpNotificationsHandler);
export { McpNotificationsHandler };
//# sourceMappingURL=mcp-notifications.handler.js.map