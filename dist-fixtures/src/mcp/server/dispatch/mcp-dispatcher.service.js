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
import { McpToolApprovalRequiredException, McpToolDeniedException, } from '../../authorizer/authorization.exceptions.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import { JsonRpcErrorCode } from '../../protocol/error-codes.constants.js';
import { isJsonObject, isRequestId, jsonRpcError, jsonRpcResult, } from '../../protocol/jsonrpc.js';
import { McpInvalidParamsError, McpMethodNotFoundError } from '../../protocol/mcp.errors.js';
import { BATCHING_PROTOCOL_VERSION } from '../../protocol/protocol-version.js';
import { McpApprovals } from '../approval/mcp-approvals.service.js';
import { McpConnections } from '../connection/mcp-connections.service.js';
import { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';
import { errorResponse } from './error-response.js';
import { McpMethodExplorer } from './mcp-method.explorer.js';
import { McpNotificationsHandler } from './mcp-notifications.handler.js';
/**
 * One decoded JSON-RPC message in, the response (or null) out. It checks the
 * envelope, routes notifications and responses, validates a request's params
 * against the official schema, runs the method's (guarded) handler and maps
 * whatever it throws to the right wire shape.
 */
let McpDispatcher = class McpDispatcher {
    constructor(options, connections, methods, notifications, approvals, outbound) {
        this.connections = connections;
        this.methods = methods;
        this.notifications = notifications;
        this.approvals = approvals;
        this.outbound = outbound;
        this.transport = options.transport ?? 'unknown';
    }
    async handle(message, connId) {
        const connection = this.connections.get(connId);
        if (!Array.isArray(message))
            return this.handleOne(message, connection);
        // Only 2025-03-26 sessions may batch; later revisions forbid it.
        if (connection.protocolVersion !== BATCHING_PROTOCOL_VERSION || message.length === 0) {
            return invalidRequest(null, 'Invalid Request: batches are not supported');
        }
        const replies = await Promise.all(message.map((item) => this.handleOne(item, connection)));
        const answered = replies.filter((reply) => reply !== null);
        return answered.length > 0 ? answered : null;
    }
    async handleOne(message, connection) {
        if (!isJsonObject(message) || message.jsonrpc !== '2.0') {
            return invalidRequest(idOf(message), 'Invalid Request: not a JSON-RPC 2.0 message');
        }
        const { method, id } = message;
        if (typeof method === 'string') {
            if (!('id' in message)) {
                this.notifications.handle(method, message.params, connection);
                return null;
            }
            if (!isRequestId(id)) {
                return invalidRequest(null, 'Invalid Request: id must be a string or a number');
            }
            return this.request(id, method, message.params, connection);
        }
        // A response to a server→client request (an error reply may carry id null); never answered.
        const isResponse = 'result' in message || 'error' in message;
        if (isResponse && (isRequestId(id) || (id === null && 'error' in message))) {
            this.notifications.response(message, connection);
            return null;
        }
        return invalidRequest(idOf(message), 'Invalid Request: no method');
    }
    async request(id, method, rawParams, connection) {
        const route = this.methods.route(method);
        if (!route)
            return errorResponse(id, new McpMethodNotFoundError(method), method);
        const params = rawParams === undefined ? {} : rawParams;
        if (!isJsonObject(params)) {
            return errorResponse(id, new McpInvalidParamsError('params must be an object'), method);
        }
        const parsed = route.params?.safeParse(params) ?? { success: true, data: params };
        if (!parsed.success) {
            const detail = describeIssues(parsed.error);
            return errorResponse(id, new McpInvalidParamsError(`Invalid params for ${method}: ${detail}`), method);
        }
        const controller = new AbortController();
        connection.inflight.set(id, controller);
        const release = () => {
            if (connection.inflight.get(id) === controller)
                connection.inflight.delete(id);
        };
        let parked = false;
        const request = {
            id,
            method,
            params: parsed.data,
            connection,
            transport: this.transport,
            signal: controller.signal,
            requestClient: (clientMethod, clientParams) => this.outbound.request(connection, clientMethod, clientParams, {
                relatedRequestId: id,
                signal: controller.signal,
            }),
        };
        try {
            const result = (await route.invoke(request));
            return controller.signal.aborted ? null : jsonRpcResult(id, result);
        }
        catch (error) {
            // A cancelled request gets no response at all (spec: cancellation).
            if (controller.signal.aborted)
                return null;
            try {
                if (error instanceof McpToolApprovalRequiredException && this.approvals.canAsk(request)) {
                    this.approvals.park(request, error, release);
                    parked = true;
                    return null;
                }
                throw error;
            }
            catch (denied) {
                if (denied instanceof McpToolDeniedException)
                    return jsonRpcResult(id, denied.toResult());
                return errorResponse(id, denied, method);
            }
        }
        finally {
            // A parked call stays in flight (so it can be cancelled) until its approval closes it.
            if (!parked)
                release();
        }
    }
};
McpDispatcher = __decorate([
    Injectable(),
    __param(0, Inject(MCP_MODULE_OPTIONS)),
    __metadata("design:paramtypes", [Object, McpConnections,
        McpMethodExplorer,
        McpNotificationsHandler,
        McpApprovals,
        McpOutboundRequests])
], McpDispatcher);
export { McpDispatcher };
function invalidRequest(id, message) {
    return jsonRpcError(id, JsonRpcErrorCode.InvalidRequest, message);
}
function idOf(message) {
    const id = isJsonObject(message) ? message.id : undefined;
    return isRequestId(id) ? id : null;
}
function describeIssues(error) {
    const issues = error.issues ?? [];
    return issues
        .slice(0, 5)
        .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
}
//# sourceMappingURL=mcp-dispatcher.service.js.map