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
import { randomBytes } from 'node:crypto';
import { DEFAULT_ELICITATION_TIMEOUT_MS } from '../../mcp.constants.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import { isJsonObject, jsonRpcNotification, } from '../../protocol/jsonrpc.js';
import { relateToRequest } from '../../protocol/related-request.js';
import { McpOutboundRequestError } from './outbound-request.errors.js';
/** Bounds on pending server→client requests. */
export const MAX_PENDING_PER_CONNECTION = 64;
export const MAX_PENDING_TOTAL = 10_000;
/**
 * Requests the server sends to one client (elicitation, sampling, roots), and
 * the matching of the client's answers. Each request has an unguessable id and
 * settles exactly once: with the answer, an error reply, its timeout, its
 * cancellation, or its connection closing. An answer is accepted only from
 * the connection the request went to; any other answer — foreign, late,
 * duplicate or forged — is ignored exactly like an unknown id.
 */
let McpOutboundRequests = class McpOutboundRequests {
    constructor(options) {
        this.pending = new Map();
        this.perConnection = new Map();
        this.defaultTimeoutMs = options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS;
    }
    /** How many requests await an answer (all connections). */
    get size() {
        return this.pending.size;
    }
    /** Whether `connection` may have one more request pending. */
    hasRoom(connection) {
        const count = this.perConnection.get(connection) ?? 0;
        return count < MAX_PENDING_PER_CONNECTION && this.pending.size < MAX_PENDING_TOTAL;
    }
    /** Sends `method` to `connection` and resolves with the client's result. */
    request(connection, method, params, options = {}) {
        const count = this.perConnection.get(connection) ?? 0;
        if (!this.hasRoom(connection)) {
            return Promise.reject(new McpOutboundRequestError('limit', 'too many pending requests'));
        }
        if (options.signal?.aborted) {
            return Promise.reject(new McpOutboundRequestError('cancelled', 'request cancelled'));
        }
        const id = randomBytes(18).toString('base64url');
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => finish({ error: new McpOutboundRequestError('timeout', `${method} timed out`) }), options.timeoutMs ?? this.defaultTimeoutMs);
            const onAbort = () => finish({ error: new McpOutboundRequestError('cancelled', 'request cancelled') });
            options.signal?.addEventListener('abort', onAbort, { once: true });
            const offClose = connection.onClose(() => finish({ error: new McpOutboundRequestError('connection_closed', 'connection closed') }));
            const finish = ({ result, error }) => {
                if (!this.pending.delete(id))
                    return;
                clearTimeout(timer);
                options.signal?.removeEventListener('abort', onAbort);
                offClose();
                this.decrement(connection);
                // Tell the client to drop a request the server gave up on (its prompt may still be open).
                if (error?.reason === 'timeout' || error?.reason === 'cancelled') {
                    const notice = jsonRpcNotification('notifications/cancelled', {
                        requestId: id,
                        reason: error.message,
                    });
                    connection.send(options.relatedRequestId === undefined
                        ? notice
                        : relateToRequest(notice, options.relatedRequestId));
                }
                if (error)
                    reject(error);
                else
                    resolve(result);
            };
            this.pending.set(id, { connection, settle: finish });
            this.perConnection.set(connection, count + 1);
            const message = { jsonrpc: '2.0', id, method, params };
            if (options.relatedRequestId !== undefined)
                relateToRequest(message, options.relatedRequestId);
            connection.send(message);
        });
    }
    /** Matches a client response to its request; ignores anything it cannot match. */
    answer(message, connection) {
        const id = message.id;
        if (typeof id !== 'string')
            return;
        const entry = this.pending.get(id);
        if (!entry || entry.connection !== connection)
            return;
        if ('error' in message) {
            const failure = new McpOutboundRequestError('error_reply', 'client answered with an error', message.error);
            entry.settle({ error: failure });
        }
        else if (isJsonObject(message.result)) {
            entry.settle({ result: message.result });
        }
        else {
            entry.settle({ error: new McpOutboundRequestError('error_reply', 'malformed result') });
        }
    }
    decrement(connection) {
        const count = (this.perConnection.get(connection) ?? 1) - 1;
        if (count <= 0)
            this.perConnection.delete(connection);
        else
            this.perConnection.set(connection, count);
    }
};
McpOutboundRequests = __decorate([
    Injectable(),
    __param(0, Inject(MCP_MODULE_OPTIONS)),
    __metadata("design:paramtypes", [Object])
], McpOutboundRequests);
export { McpOutboundRequests };
//# sourceMappingURL=mcp-outbound-requests.service.js.map