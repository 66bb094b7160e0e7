import { Subject } from 'rxjs';
/**
 * Everything the server knows about one client connection. It lives from
 * `subscribe(connId)` (or the first message) until the transport unsubscribes;
 * nothing here outlives it, so a re-used `connId` starts clean.
 */
export class McpConnection {
    constructor(id) {
        this.id = id;
        /** Outbound messages: pushed responses, server requests, notifications. */
        this.outbound = new Subject();
        this.initialized = false;
        /** `notifications/message` below this level are not sent. */
        this.logLevel = 'info';
        /** URIs this connection subscribed to with `resources/subscribe`. */
        this.subscriptions = new Set();
        /** Requests being served, by id, so `notifications/cancelled` can abort them. */
        this.inflight = new Map();
        this.closed = false;
        this.closeHooks = new Set();
    }
    /** True while a transport is draining `outbound`. */
    get live() {
        return !this.closed && this.outbound.observed;
    }
    /** Pushes a message to the client, if anyone is listening. */
    send(message) {
        if (!this.closed)
            this.outbound.next(message);
    }
    /** Runs `hook` once when the connection closes; returns a function that cancels it. */
    onClose(hook) {
        if (this.closed) {
            hook();
            return () => undefined;
        }
        this.closeHooks.add(hook);
        return () => this.closeHooks.delete(hook);
    }
    /** Ends the connection: aborts its requests and completes its channel. */
    close() {
        if (this.closed)
            return;
        this.closed = true;
        for (const hook of this.closeHooks)
            hook();
        this.closeHooks.clear();
        for (const controller of this.inflight.values())
            controller.abort(new Error('connection closed'));
        this.inflight.clear();
        this.subscriptions.clear();
        this.outbound.complete();
    }
}
//# sourceMappingURL=mcp-connection.js.map