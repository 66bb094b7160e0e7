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
import { McpServer } from '../../../server/mcp.server.js';
import { McpHttpError } from '../errors/mcp-http.error.js';
import { MCP_HTTP_OPTIONS } from '../http-options.js';
import { McpHttpSession } from './http-session.js';
/**
 * The live Streamable HTTP sessions. Ids are minted here (never taken from a
 * client), are cryptographically random and visible ASCII; sessions are
 * bounded in number and end after `sessionIdleMs` without requests or streams.
 */
let McpHttpSessions = class McpHttpSessions {
    constructor(server, options) {
        this.server = server;
        this.options = options;
        this.sessions = new Map();
        const every = Math.max(50, Math.min(options.sessionIdleMs / 2, 60_000));
        this.sweeper = setInterval(() => this.sweep(), every);
        this.sweeper.unref();
    }
    get size() {
        return this.sessions.size;
    }
    /** Opens a session and its server connection; 503 past the bound. */
    create() {
        if (this.sessions.size >= this.options.maxSessions) {
            throw new McpHttpError(503, 'Service Unavailable: too many sessions');
        }
        const id = randomBytes(24).toString('base64url');
        const session = new McpHttpSession(id, `http:${randomBytes(9).toString('base64url')}`, this.options);
        session.attach(this.server.subscribe(session.connId).subscribe((message) => session.route(message)));
        this.sessions.set(id, session);
        return session;
    }
    /** The session a request names: 400 without an id, 404 for an unknown or ended one. */
    require(id) {
        if (!id)
            throw new McpHttpError(400, 'Bad Request: Mcp-Session-Id header is required');
        const session = this.sessions.get(id);
        if (!session)
            throw new McpHttpError(404, 'Session not found');
        session.lastSeen = Date.now();
        return session;
    }
    delete(id) {
        this.sessions.get(id)?.close();
        this.sessions.delete(id);
    }
    /** Total events buffered for replay, over all sessions. */
    bufferedEvents() {
        let total = 0;
        for (const session of this.sessions.values())
            total += session.bufferedEvents;
        return total;
    }
    sweep() {
        const cutoff = Date.now() - this.options.sessionIdleMs;
        for (const [id, session] of this.sessions) {
            if (session.lastSeen < cutoff && !session.streaming)
                this.delete(id);
        }
    }
    onModuleDestroy() {
        clearInterval(this.sweeper);
        for (const id of [...this.sessions.keys()])
            this.delete(id);
    }
};
McpHttpSessions = __decorate([
    Injectable(),
    __param(1, Inject(MCP_HTTP_OPTIONS)),
    __metadata("design:paramtypes", [McpServer, Object])
], McpHttpSessions);
export { McpHttpSessions };
//# sourceMappingURL=http-sessions.service.js.map