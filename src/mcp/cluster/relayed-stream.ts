import type { ServerResponse } from 'node:http';
import { jsonRpcError, type JsonRpcMessage, type RequestId } from '../protocol/jsonrpc.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.constants.js';
import { SseStream, type SseStreamOptions } from '../transports/http/sse/sse-stream.js';
import { requestKey } from '../transports/http/streamable/post-exchange.js';
import type { ClusterEvent } from './cluster-messages.js';
import { seqOf } from './redis-event.log.js';

/** The error a request gets when the instance running it stopped before answering. */
export const OWNER_STOPPED = 'The server instance running this request stopped before answering';

/**
 * A stream this instance serves for a session another instance holds: the
 * owner's events arrive as `ClusterEvent`s (held back until the stream is
 * open, and never sent twice after a replay), and the stream ends when every
 * request it answers has its response, when the owner ends it, or when the
 * owner dies (each request still unanswered then gets an error response).
 */
export class RelayedStream {
  private stream?: SseStream;
  private readonly held: ClusterEvent[] = [];
  private readonly pending = new Set<string>();
  private readonly ids = new Map<string, RequestId>();
  private lastSeq = -1;
  private ended = false;
  private readonly endHooks: (() => void)[] = [];

  constructor(
    /** Requests answered on this stream (none: the standalone stream). */
    ids: readonly RequestId[],
    private readonly maxHeld: number,
  ) {
    for (const id of ids) this.expect(id);
  }

  get done(): boolean {
    return this.ended;
  }

  expect(id: RequestId): void {
    this.pending.add(requestKey(id));
    this.ids.set(requestKey(id), id);
  }

  /** An event from the owner (before `open`, kept; past `maxHeld` of them the stream is dropped). */
  receive(event: ClusterEvent): void {
    if (this.ended) return;
    if (!this.stream) {
      if (this.held.length >= this.maxHeld) return this.end();
      this.held.push(event);
      return;
    }
    if (event.t === 'x') return this.end();
    this.send(event.id, event.d);
  }

  /** Opens the SSE response, after `replayed` (events from the log, in order). */
  open(
    res: ServerResponse,
    options: SseStreamOptions,
    headers: Record<string, string>,
    primeId: string | undefined,
    replayed: { id: string; data: string }[] = [],
  ): void {
    this.stream = new SseStream(res, options, headers);
    this.stream.onClose(() => this.end());
    if (primeId) this.stream.prime(primeId);
    for (const event of replayed) this.send(event.id, event.data);
    for (const event of this.held.splice(0)) this.receive(event);
    if (!this.ended && this.ids.size > 0 && this.pending.size === 0) this.end();
  }

  /** Marks responses the log shows were already sent (so they are not awaited). */
  answered(data: string): void {
    const key = responseKey(data);
    if (key) this.pending.delete(key);
  }

  /** The owner died: every request still unanswered gets an error, then the stream ends. */
  ownerStopped(): void {
    if (this.ended) return;
    for (const key of this.pending) {
      const error = jsonRpcError(this.ids.get(key)!, JsonRpcErrorCode.InternalError, OWNER_STOPPED);
      this.stream?.send(JSON.stringify(error));
    }
    this.pending.clear();
    this.end();
  }

  onEnd(hook: () => void): void {
    if (this.ended) hook();
    else this.endHooks.push(hook);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.stream?.close();
    for (const hook of this.endHooks.splice(0)) hook();
  }

  private send(id: string, data: string): void {
    const seq = seqOf(id);
    if (seq <= this.lastSeq) return;
    this.lastSeq = seq;
    this.stream!.send(data, id);
    const key = responseKey(data);
    if (key && this.pending.delete(key) && this.pending.size === 0) this.end();
  }
}

/** The request key a response answers, or undefined for anything else. */
function responseKey(data: string): string | undefined {
  try {
    const message = JSON.parse(data) as JsonRpcMessage;
    if (message.method !== undefined || !('result' in message || 'error' in message)) return;
    return message.id === undefined || message.id === null
      ? undefined
      : requestKey(message.id as RequestId);
  } catch {
    return undefined;
  }
}
