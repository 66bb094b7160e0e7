/**
 * One Server-Sent Events response. It owns its keep-alive timer and bounds
 * what a slow reader can make the server buffer: past `maxQueued` unflushed
 * writes the stream is closed (the session and its other streams go on).
 */
export class SseStream {
    constructor(res, options, headers = {}) {
        this.res = res;
        this.options = options;
        this.queued = 0;
        this.ended = false;
        this.closeHooks = [];
        res.writeHead(200, {
            'Content-Type': 'text/event-stream',
            'Cache-Control': 'no-cache, no-transform',
            Connection: 'keep-alive',
            'X-Accel-Buffering': 'no',
            ...headers,
        });
        res.flushHeaders();
        res.once('close', () => this.finish());
        this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), options.keepAliveMs);
        this.keepAlive.unref();
    }
    get open() {
        return !this.ended;
    }
    /** Sends the priming event (an id, a retry hint and empty data) that makes the stream resumable. */
    prime(eventId) {
        this.write(`id: ${eventId}\nretry: ${this.options.retryMs}\ndata: \n\n`);
    }
    /** Sends one message event; `eventId` makes it resumable. */
    send(data, eventId, event = 'message') {
        const id = eventId === undefined ? '' : `id: ${eventId}\n`;
        this.write(`event: ${event}\n${id}data: ${data}\n\n`);
    }
    /** Ends the response (after what was written is flushed). */
    close() {
        if (this.ended)
            return;
        this.res.end();
        this.finish();
    }
    onClose(hook) {
        if (this.ended)
            hook();
        else
            this.closeHooks.push(hook);
    }
    write(chunk) {
        if (this.ended)
            return;
        if (this.queued >= this.options.maxQueued) {
            // A reader this slow would make us buffer without bound: drop the stream.
            this.res.destroy();
            this.finish();
            return;
        }
        this.queued++;
        this.res.write(chunk, () => this.queued--);
    }
    finish() {
        if (this.ended)
            return;
        this.ended = true;
        clearInterval(this.keepAlive);
        for (const hook of this.closeHooks.splice(0))
            hook();
    }
}
//# sourceMappingURL=sse-stream.js.map