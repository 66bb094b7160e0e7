import { DEFAULT_CONN_ID } from '../../mcp.constants.js';
import { JsonRpcErrorCode } from '../../protocol/error-codes.constants.js';
import { jsonRpcError, parseErrorResponse } from '../../protocol/jsonrpc.js';
import { LineDecoder } from './line.decoder.js';
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
/**
 * Newline-delimited JSON-RPC over a pair of streams (stdin/stdout by default).
 * It frames bytes and nothing more: every line goes to `McpServer` as is, and
 * every reply or outbound message is written as one line. Requests are served
 * concurrently, so a cancellation can overtake the call it cancels.
 */
export class McpStdioTransport {
    constructor(server, options = {}) {
        this.server = server;
        this.inflight = new Set();
        this.input = options.input ?? process.stdin;
        this.output = options.output ?? process.stdout;
        this.decoder = new LineDecoder(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
        this.connId = options.connId ?? DEFAULT_CONN_ID;
    }
    /** Serves until the input ends (or `stop()`), then waits for in-flight requests. */
    run() {
        this.outbound = this.server.subscribe(this.connId).subscribe((message) => this.write(message));
        const ended = new Promise((resolve) => {
            this.finish = resolve;
            this.input.once('end', resolve);
            this.input.once('close', resolve);
        });
        this.input.on('data', (chunk) => this.receive(this.decoder.push(toBuffer(chunk))));
        return ended.then(async () => {
            this.receive(this.decoder.end());
            await this.drain();
            this.outbound?.unsubscribe();
        });
    }
    /** Stops reading (SIGTERM): `run()` resolves once in-flight requests finish. */
    stop() {
        this.input.pause();
        this.input.removeAllListeners('data');
        this.finish?.();
    }
    receive(events) {
        for (const event of events) {
            if (event.kind === 'oversized') {
                this.write(jsonRpcError(null, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: message too large'));
                continue;
            }
            let message;
            try {
                message = JSON.parse(event.text);
            }
            catch {
                this.write(parseErrorResponse());
                continue;
            }
            this.track(this.server.handleMessage(message, this.connId).then((reply) => {
                if (reply !== null)
                    this.write(reply);
            }));
        }
    }
    track(work) {
        this.inflight.add(work);
        void work.finally(() => this.inflight.delete(work));
    }
    async drain() {
        while (this.inflight.size > 0)
            await Promise.allSettled([...this.inflight]);
    }
    write(message) {
        if (this.output.writable)
            this.output.write(JSON.stringify(message) + '\n');
    }
}
function toBuffer(chunk) {
    return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}
//# sourceMappingURL=stdio.transport.js.map