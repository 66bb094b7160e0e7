import type { ServerResponse } from 'node:http';
import { jsonRpcError, type JsonRpcMessage, type RequestId } from '../core/protocol/jsonrpc.js';
import { JsonRpcErrorCode } from '../core/protocol/error-codes.constants.js';
import { McpHttpError } from '../core/http/mcp-http.error.js';
import { sendJson } from '../core/http/send-json.js';
import { SseStream, type SseStreamOptions } from '../transports/http/sse/sse-stream.js';
import { requestKey } from '../transports/http/streamable/post-exchange.js';
import type { ClusterEvent } from './cluster-messages.js';
import { seqOf } from './redis-event.log.js';

/**
 * What a request still unanswered is told when the instance running it stopped
 * (JSON-RPC `OutcomeUnknown`): it may have run to its end, side effects and
 * all, before the answer could leave.
 */
export const OWNER_STOPPED =
  'Outcome unknown: the server instance running this request stopped before answering; it may have run';

/**
 * What a request still unanswered is told when the shared store dropped while
 * it ran: its answer may have been published into the outage and lost.
 */
export const STORE_LOST =
  'Outcome unknown: the cluster store dropped while this request ran, and its answer may be lost; it may have run';

/** How a relayed stream answers its client. */
export interface RelayedResponse {
  res: ServerResponse;
  sse: SseStreamOptions;
  headers: Record<string, string>;
  /** The priming event's id (makes the stream resumable). */
  primeId?: string;
  /**
   * A POST whose client did not ask for a stream: answered with plain JSON
   * while nothing but its responses arrives (as a local POST is), and turned
   * into a stream as soon as anything else must go first.
   */
  json?: { batch: boolean };
}

/**
 * A stream this instance serves for a session another instance holds: the
 * owner's events arrive as `ClusterEvent`s (held back until the response is
 * open, and never sent twice after a replay), and the stream ends when every
 * request it answers has its response, when the owner ends it, or when the
 * owner dies (each request still unanswered then gets an error response).
 */
export class RelayedStream {
  private target?: RelayedResponse;
  private stream?: SseStream;
  private readonly held: ClusterEvent[] = [];
  /** JSON mode: the responses so far, with their event ids (in case a stream must open). */
  private readonly replies: { id: string; data: string }[] = [];
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

  expect(id: RequestId): void {
    this.pending.add(requestKey(id));
    this.ids.set(requestKey(id), id);
  }

  /** An event from the owner (before `open`, kept; past `maxHeld` of them the stream is dropped). */
  receive(event: ClusterEvent): void {
    if (this.ended) return;
    if (!this.target) {
      if (this.held.length >= this.maxHeld) return this.end();
      this.held.push(event);
      return;
    }
    if (event.t === 'x') return this.end();
    this.send(event.id, event.d);
  }

  /** Starts answering on `target`, after `replayed` (events from the log, in order). */
  open(target: RelayedResponse, replayed: { id: string; data: string }[] = []): void {
    this.target = target;
    if (target.json && replayed.length === 0) {
      // A client that goes away ends the relay (and the owner is told).
      target.res.once('close', () => this.end());
    } else {
      this.openStream();
    }
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
    this.unanswered(OWNER_STOPPED);
  }

  /**
   * The store dropped while this stream was relayed: what the owner sent
   * meanwhile is lost. A stream that answers requests ends with an error for
   * each still unanswered; the standalone stream (no requests) goes on.
   */
  storeLost(): void {
    if (this.pending.size > 0) this.unanswered(STORE_LOST);
  }

  /** Every request still unanswered gets `OutcomeUnknown` with `message`, then the stream ends. */
  private unanswered(message: string): void {
    if (this.ended) return;
    for (const key of this.pending) {
      const error = jsonRpcError(this.ids.get(key)!, JsonRpcErrorCode.OutcomeUnknown, message);
      if (this.stream) this.stream.send(JSON.stringify(error));
      else this.replies.push({ id: '', data: JSON.stringify(error) });
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
    if (this.stream) this.stream.close();
    else this.answerJson();
    for (const hook of this.endHooks.splice(0)) hook();
  }

  private send(id: string, data: string): void {
    const seq = seqOf(id);
    if (seq <= this.lastSeq) return;
    this.lastSeq = seq;
    const key = responseKey(data);
    const answers = key !== undefined && this.pending.has(key);
    if (!this.stream && answers) {
      this.replies.push({ id, data });
    } else {
      if (!this.stream) this.openStream();
      this.stream!.send(data, id);
    }
    if (answers && this.pending.delete(key!) && this.pending.size === 0) this.end();
  }

  /** Turns the answer into a stream; the responses that came first ride it too. */
  private openStream(): void {
    const target = this.target!;
    this.stream = new SseStream(target.res, target.sse, target.headers);
    this.stream.onClose(() => this.end());
    if (target.primeId) this.stream.prime(target.primeId);
    for (const reply of this.replies.splice(0)) this.stream.send(reply.data, reply.id || undefined);
  }

  /** JSON mode's answer: its responses, or (none came: the session ended) a refusal. */
  private answerJson(): void {
    const target = this.target;
    if (!target || target.res.headersSent || target.res.destroyed) return;
    if (this.replies.length === 0) {
      const body = new McpHttpError(404, 'Session terminated').toBody();
      return sendJson(target.res, 404, body, target.headers);
    }
    const messages = this.replies.map((reply) => JSON.parse(reply.data) as unknown);
    const body = messages.length === 1 && !target.json?.batch ? messages[0] : messages;
    sendJson(target.res, 200, body, target.headers);
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
