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
import { Observable } from 'rxjs';
import { McpAuditService } from '../authorizer/audit/mcp-audit.service.js';
import { McpAuthorizationService } from '../authorizer/mcp-authorization.service.js';
import { DEFAULT_CONN_ID } from '../mcp.constants.js';
import { jsonRpcNotification } from '../protocol/jsonrpc.js';
import { McpRegistry } from '../registry/mcp-registry.service.js';
import { McpUnguardedSensitiveToolsError } from '../registry/registry.errors.js';
import { McpConnections } from './connection/mcp-connections.service.js';
import { McpDispatcher } from './dispatch/mcp-dispatcher.service.js';
const RESOURCE_UPDATED = 'notifications/resources/updated';
/**
 * The transport-agnostic MCP server. Transports hand it one decoded message at
 * a time with the connection it came from, write back what it returns, and
 * drain the connection's outbound channel from `subscribe()`.
 */
let McpServer = class McpServer {
    constructor(dispatcher, connections, registry, authorization, audit) {
        this.dispatcher = dispatcher;
        this.connections = connections;
        this.registry = registry;
        this.authorization = authorization;
        this.audit$ = audit.events$;
    }
    /**
     * Handles one decoded JSON-RPC message (or a batch, for 2025-03-26 sessions)
     * from `connId`. Resolves to the response, or null for notifications,
     * responses and cancelled requests. Never rejects.
     */
    handleMessage(message, connId = DEFAULT_CONN_ID) {
        return this.dispatcher.handle(message, connId);
    }
    /**
     * Opens `connId`'s outbound channel. Any earlier state of `connId` (client
     * capabilities, subscriptions, in-flight requests, parked calls) is
     * dropped first; when the last observer unsubscribes it is dropped again.
     */
    subscribe(connId = DEFAULT_CONN_ID) {
        const connection = this.connections.replace(connId);
        // Several observers may share the channel; the connection ends with the last of them.
        let observers = 0;
        return new Observable((subscriber) => {
            observers++;
            const inner = connection.outbound.subscribe(subscriber);
            return () => {
                inner.unsubscribe();
                if (--observers === 0)
                    this.connections.drop(connection);
            };
        });
    }
    /**
     * Sends a notification to every connection; `notifications/resources/updated`
     * goes only to connections subscribed to its `uri`.
     */
    notify(method, params) {
        const uri = method === RESOURCE_UPDATED ? params?.uri : undefined;
        for (const connection of this.connections.all()) {
            if (method === RESOURCE_UPDATED && !connection.subscriptions.has(uri))
                continue;
            connection.send(jsonRpcNotification(method, params));
        }
    }
    /**
     * Whether request `id` of `connId` is still being served, e.g. parked for
     * approval. A transport uses it to tell a parked call (answered later on the
     * outbound channel) from a cancelled one (never answered).
     */
    isInFlight(connId, id) {
        return this.connections.find(connId)?.inflight.has(id) ?? false;
    }
    /** True only when a tool authorizer is set and its source is `'configured'`. */
    authorizationConfigured() {
        return this.authorization.authorizationConfigured();
    }
    /** True when a read authorizer is set. */
    readAuthorizationConfigured() {
        return this.authorization.readAuthorizationConfigured();
    }
    /** Refuses to boot with a sensitive tool and no tool authorizer; then announces list changes. */
    onApplicationBootstrap() {
        if (!this.authorization.hasToolAuthorizer()) {
            const unguarded = this.registry.tools().filter((entry) => entry.sensitive);
            if (unguarded.length > 0) {
                throw new McpUnguardedSensitiveToolsError(unguarded.map((entry) => entry.tool.name));
            }
        }
        this.listChanges = this.registry.changes$.subscribe((kind) => this.notify(`notifications/${kind}/list_changed`));
    }
    onModuleDestroy() {
        this.listChanges?.unsubscribe();
    }
};
McpServer = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpDispatcher,
        McpConnections,
        McpRegistry,
        McpAuthorizationService,
        McpAuditService])
], McpServer);
export { McpServer };
//# sourceMappingURL=mcp.server.js.map