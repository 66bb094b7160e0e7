// A pipelined newline-delimited JSON-RPC client on a child's stdin/stdout. Requests written in
// the same turn of the event loop go out in one write, so 32 calls in flight cost the driver one
// syscall per batch of answers rather than one per call.
import { INITIALIZED, describe, initializeLine } from './mcp.mjs';

export class StdioClient {
  constructor(child) {
    this.child = child;
    this.pending = new Map();
    this.out = [];
    this.flushQueued = false;
    this.partial = '';
    this.lastId = 0; // ids are never reused within the session
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => this.onData(chunk));
    child.once('exit', (code, signal) =>
      this.failAll(new Error(`server exited (code ${code}, signal ${signal})`)),
    );
    child.stdin.on('error', (error) => this.failAll(error));
  }

  /** Sends a prebuilt request line whose id is `id`; resolves with the answer. */
  send(id, line) {
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.write(line);
    });
  }

  write(line) {
    this.out.push(line);
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** initialize + notifications/initialized; resolves with this client. */
  async ready() {
    const id = ++this.lastId;
    const reply = await this.send(id, initializeLine(id));
    if (!reply.result?.protocolVersion) throw new Error(`initialize failed: ${describe(reply)}`);
    this.write(INITIALIZED);
    return this;
  }

  /** One tools/call of `call` (see mcp.mjs); throws unless it is answered successfully. */
  async callTool(call) {
    const id = ++this.lastId;
    const message = await this.send(id, call.line(id));
    if (!call.ok(message)) throw new Error(`${call.name} failed: ${describe(message)}`);
  }

  flush() {
    this.flushQueued = false;
    if (this.out.length === 0) return;
    this.child.stdin.write(this.out.join('\n') + '\n');
    this.out.length = 0;
  }

  onData(chunk) {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop();
    for (const line of lines) {
      if (!line) continue;
      const message = JSON.parse(line);
      const waiter = this.pending.get(message.id);
      // Server-initiated messages (notifications, requests) are not part of these workloads.
      if (!waiter || message.method !== undefined) continue;
      this.pending.delete(message.id);
      waiter.resolve(message);
    }
  }

  failAll(error) {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}
