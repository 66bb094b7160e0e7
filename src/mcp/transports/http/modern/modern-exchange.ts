import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../../../core/protocol/jsonrpc.js';
import { sendJson } from '../../../core/http/send-json.js';
import { SseStream, type SseStreamOptions } from '../sse/sse-stream.js';

/**
 * The response to one modern POST: plain JSON when nothing but the answer
 * goes out, an SSE stream as soon as a message related to the request
 * (progress, a log line, a listen notification) must precede it. No event
 * ids and no replay: the modern era has no resumability, and closing the
 * stream cancels the request.
 */
export class ModernExchange {
  private stream?: SseStream;
  private finished = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly sse: SseStreamOptions,
  ) {}

  get done(): boolean {
    return this.finished;
  }

  /** A message that belongs to the request and goes out before its answer. */
  related(message: JsonRpcMessage): void {
    if (this.finished) return;
    this.stream ??= new SseStream(this.res, this.sse);
    this.stream.send(JSON.stringify(message));
  }

  /** The answer, with its HTTP status when it is the whole response. */
  answer(reply: JsonRpcMessage, status: number, headers?: Record<string, string>): void {
    if (this.finished) return;
    this.finished = true;
    if (this.stream) {
      this.stream.send(JSON.stringify(reply));
      this.stream.close();
    } else if (!this.res.destroyed) {
      sendJson(this.res, status, reply, headers);
    }
  }

  /** No answer will come (the request was cancelled): end what was started. */
  end(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.stream) this.stream.close();
    else if (!this.res.headersSent && !this.res.destroyed) this.res.writeHead(202).end();
  }
}
