import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage, RequestId } from '../../../core/protocol/jsonrpc.js';
import type { EventBuffer } from '../sse/event-buffer.js';
import { SseStream, type SseStreamOptions } from '../sse/sse-stream.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { sendJson } from '../../../core/http/send-json.js';

/** A request id as a map key (1 and "1" are different ids). */
export function requestKey(id: RequestId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/**
 * The requests of one POST and the response that carries their answers. It
 * answers with plain JSON when nothing but the responses is sent, and turns
 * into an SSE stream as soon as a related message (progress, log, a request
 * to the client) must go out first. The stream ends after the last response.
 * If the client goes away, the requests go on (a disconnect is not a
 * cancellation) and their events stay in the session's buffer for replay.
 */
export class PostExchange {
  /*
   * The keys of the requests still awaiting their response. Most POSTs carry one request: its
   * key alone, so that no hash table is made per POST and rehashed when its one entry leaves. A
   * batch keeps a set, so that answering n requests costs n steps, not n².
   */
  private pending: string | Set<string> | undefined;
  private readonly replies: JsonRpcMessage[] = [];
  private stream?: SseStream;
  private done = false;

  constructor(
    readonly streamId: string,
    private res: ServerResponse | undefined,
    /** The keys (`requestKey`) of the POST's requests. */
    keys: readonly string[],
    /** A batch POST's JSON answer is always an array. */
    private readonly batch: boolean,
    private readonly events: EventBuffer,
    private readonly sse: SseStreamOptions,
    private readonly headers: Record<string, string>,
    private readonly onDone: (exchange: PostExchange) => void,
    /** Answer as a stream even when nothing else precedes the responses (the client prefers it). */
    private readonly streamAlways = false,
  ) {
    this.pending = keys.length === 1 ? keys[0] : new Set(keys);
  }

  /* The client's response, while it is still connected (checked lazily: no listener per POST). */
  private get live(): ServerResponse | undefined {
    if (this.res?.destroyed) this.res = undefined;
    return this.res;
  }

  /** A message related to one of this POST's requests: its response, or something before it. */
  deliver(message: JsonRpcMessage): void {
    if (this.done) return;
    const key = isResponse(message) ? requestKey(message.id as RequestId) : undefined;
    const answers = key !== undefined && this.awaits(key);
    if (answers && !this.stream && this.live && !this.streamAlways) {
      // Plain JSON while no event had to be streamed: the fast, common path.
      this.replies.push(message);
      this.settle(key!);
      if (!this.awaiting) this.finishJson();
      return;
    }
    // Open the stream first: its priming event must be numbered before this event.
    const stream = this.ensureStream();
    const data = JSON.stringify(message);
    // Buffered even when the client is gone: it may resume with Last-Event-ID.
    const eventId = this.events.add(this.streamId, data);
    stream?.send(data, eventId);
    if (answers) {
      this.settle(key!);
      if (!this.awaiting) this.finish();
    }
  }

  /** Whether a client is still attached (a stream or a response not yet answered). */
  get connected(): boolean {
    return this.stream?.open === true || (this.live !== undefined && !this.done);
  }

  /** The session ended: end the stream, or refuse an unanswered response, and stop waiting. */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.pending = undefined;
    if (this.stream) this.stream.close();
    else if (this.live && !this.res!.headersSent) {
      const body = new McpHttpError(404, 'Session terminated').toBody();
      sendJson(this.res!, 404, body, this.headers);
    }
  }

  /**
   * Answers the POST with an HTTP refusal carrying `reply` as its body (the
   * 403 step-up for an under-scoped call), while nothing has been streamed
   * yet; once streaming, the reply is delivered as any other.
   */
  refuse(reply: JsonRpcMessage, refusal: McpHttpError): void {
    const res = this.live;
    if (this.done || this.stream || !res || res.headersSent || this.replies.length > 0) {
      return this.deliver(reply);
    }
    this.done = true;
    this.pending = undefined;
    sendJson(res, refusal.status, reply, { ...this.headers, ...refusal.headers });
    this.onDone(this);
  }

  /** A request that will get no response (cancelled): stop waiting for it. */
  abandon(id: RequestId): void {
    if (this.settle(requestKey(id)) && !this.awaiting) this.finish();
  }

  /** Re-attaches a client that resumed this stream with `Last-Event-ID`. */
  resume(stream: SseStream): void {
    this.stream?.close();
    this.stream = stream;
    this.res = undefined;
  }

  /* Whether any request still awaits its response. */
  private get awaiting(): boolean {
    return typeof this.pending === 'string' || (this.pending?.size ?? 0) > 0;
  }

  private awaits(key: string): boolean {
    return typeof this.pending === 'string' ? this.pending === key : !!this.pending?.has(key);
  }

  /* Whether `key` was still awaiting its response; it no longer is. */
  private settle(key: string): boolean {
    if (typeof this.pending !== 'string') return !!this.pending?.delete(key);
    if (this.pending !== key) return false;
    this.pending = undefined;
    return true;
  }

  private ensureStream(): SseStream | undefined {
    if (this.stream?.open) return this.stream;
    const res = this.live;
    if (!res || res.headersSent) return undefined;
    this.stream = new SseStream(res, this.sse, this.headers);
    this.stream.prime(this.events.mark(this.streamId));
    // Anything already answered rides the stream too.
    for (const reply of this.replies.splice(0)) {
      const data = JSON.stringify(reply);
      this.stream.send(data, this.events.add(this.streamId, data));
    }
    return this.stream;
  }

  private finishJson(): void {
    const res = this.live;
    this.done = true;
    if (res && !res.headersSent) {
      const body = this.replies.length === 1 && !this.batch ? this.replies[0] : this.replies;
      sendJson(res, 200, body, this.headers);
    }
    this.onDone(this);
  }

  private finish(): void {
    if (this.done) return;
    if (!this.stream && this.replies.length > 0) return this.finishJson();
    this.done = true;
    if (this.stream) this.stream.close();
    else if (this.live && !this.res!.headersSent) this.res!.writeHead(202, this.headers).end();
    this.onDone(this);
  }
}

function isResponse(message: JsonRpcMessage): boolean {
  return message.method === undefined && ('result' in message || 'error' in message);
}
