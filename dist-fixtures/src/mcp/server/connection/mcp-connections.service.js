var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Injectable } from '@nestjs/common';
import { McpConnection } from './mcp-connection.js';
/** The live connections, by `connId`. */
let McpConnections = class McpConnections {
    constructor() {
        this.byId = new Map();
    }
    /** The connection `connId`, created on first use (a direct caller may never subscribe). */
    get(connId) {
        let connection = this.byId.get(connId);
        if (!connection) {
            connection = new McpConnection(connId);
            this.byId.set(connId, connection);
        }
        return connection;
    }
    /** The connection `connId`, if it exists (never creates one). */
    find(connId) {
        return this.byId.get(connId);
    }
    /** Starts `connId` afresh, closing whatever state it had. */
    replace(connId) {
        this.byId.get(connId)?.close();
        const connection = new McpConnection(connId);
        this.byId.set(connId, connection);
        return connection;
    }
    /** Closes and forgets `connection`, unless `connId` was already re-bound to a newer one. */
    drop(connection) {
        connection.close();
        if (this.byId.get(connection.id) === connection)
            this.byId.delete(connection.id);
    }
    all() {
        return this.byId.values();
    }
    get size() {
        return this.byId.size;
    }
    onApplicationShutdown() {
        for (const connection of this.byId.values())
            connection.close();
        this.byId.clear();
    }
};
McpConnections = __decorate([
    Injectable()
], McpConnections);
export { McpConnections };
//# sourceMappingURL=mcp-connections.service.js.map