import type { ServerResponse } from 'node:http';
import type { Subscription } from 'rxjs';
import type { JsonRpcMessage, RequestId } from '../../../core/protocol/jsonrpc.js';
import { relatedRequestOf } from '../../../core/protocol/related-request.js';
import { SteadyMap } from '../../../core/common/steady-map.js';
import type { McpHttpSettings } from '../http-settings.js';
import { EventBuffer } from '../sse/event-buffer.js';
import type { McpEventMirror } from '../sse/event-mirror.interface.js';
import { SseStream, type SseStreamOptions } from '../sse/sse-stream.js';
import { PostExchange, requestKey } from '../streamable/post-exchange.js';

/** The stream id of a session's standalone (GET) stream. */
export const STANDALONE = '0'; // POST streams count from 1

/**
 * One Streamable HTTP session: a server connection (`connId`) and the streams
 * its messages travel on. A message related to a request goes to that
 * request's POST stream only; anything else goes to the standalone GET
 * stream, or waits (bounded) for one to open. Nothing is ever broadcast.
 */
export class McpHttpSession {
  protocolVersion?: string;
  lastSeen = Date.now();
  private readonly events: EventBuffer;
  private readonly exchanges = new SteadyMap<string, PostExchange>();
  private readonly byRequest = new SteadyMap<string, PostExchange>();
  private standalone?: SseStream;
  private readonly waiting: JsonRpcMessage[] = [];
  private subscription?: Subscription;
  private closed = false;
  private streams = 0;
  /* The same for every stream of the session: made once, not per POST. */
  private readonly sessionHeaders: Readonly<Record<string, string>>;
  private readonly streamOptions: SseStreamOptions;

  constructor(
    readonly id: string,
    readonly connId: string,
    private readonly options: McpHttpSettings,
    /** The principal that created the session (see `principalKey`); only it may use it. */
    readonly owner: string = '',
    /** Whose session quota it counts against (the owner, or the client address when anonymous). */
    readonly quotaKey: string = owner,
    /** Cluster mode: where events are copied for other instances (replay, relayed streams). */
    private readonly mirror?: McpEventMirror,
  ) {
    this.events = new EventBuffer(options.eventBufferSize, mirror);
    this.sessionHeaders = Object.freeze({ 'mcp-session-id': id });
    const { keepAliveMs, retryMs, maxQueuedEvents } = options;
    this.streamOptions = Object.freeze({ keepAliveMs, retryMs, maxQueued: maxQueuedEvents });
  }

  /**
   * Whether a client is attached to one of this session's streams (an open
   * stream is not idleness; a pending call whose client has gone is).
   */
  get streaming(): boolean {
    if (this.standalone?.open || this.mirror?.relays(STANDALONE)) return true;
    for (const exchange of this.exchanges.values()) if (exchange.connected) return true;
    return false;
  }

  get bufferedEvents(): number {
    return this.events.size;
  }

  /** Starts draining the server connection's outbound channel. */
  attach(subscription: Subscription): void {
    this.subscription = subscription;
  }

  /** Routes one outbound message to the stream it belongs on. */
  route(message: JsonRpcMessage): void {
    const related = relatedRequestOf(message);
    const exchange = related === undefined ? undefined : this.byRequest.get(requestKey(related));
    if (exchange) return exchange.deliver(message);
    if (this.standalone?.open) {
      const data = JSON.stringify(message);
      this.standalone.send(data, this.events.add(STANDALONE, data));
    } else if (this.mirror?.relays(STANDALONE)) {
      // Another instance serves the standalone stream: the mirror carries it there.
      this.events.add(STANDALONE, JSON.stringify(message));
    } else if (this.waiting.length < this.options.maxQueuedEvents) {
      this.waiting.push(message);
    }
  }

  /** Whether a request with this id is still being answered on this session. */
  inFlight(id: RequestId): boolean {
    return this.byRequest.has(requestKey(id));
  }

  /**
   * Opens the exchange that will answer the requests `ids` of one POST on
   * `res` (none: a POST another instance received, whose answers travel
   * through the mirror).
   */
  openExchange(
    res: ServerResponse | undefined,
    ids: RequestId[],
    batch: boolean,
    stream = false,
  ): PostExchange {
    // Stream ids only need to be unique within the session (event ids carry them).
    const streamId = (++this.streams).toString(36);
    const keys = ids.map(requestKey);
    const exchange = new PostExchange(
      streamId,
      res,
      keys,
      batch,
      this.events,
      this.streamOptions,
      this.sessionHeaders,
      (done) => this.closeExchange(done, keys),
      stream,
    );
    this.exchanges.set(streamId, exchange);
    for (const key of keys) this.byRequest.set(key, exchange);
    this.mirror?.opened(streamId, ids);
    return exchange;
  }

  /** A fresh event id on `streamId` (the priming event of a stream served elsewhere). */
  mark(streamId: string): string {
    return this.events.mark(streamId);
  }

  /** Whether a POST stream is still answering its requests. */
  hasExchange(streamId: string): boolean {
    return this.exchanges.has(streamId);
  }

  /** Whether this instance holds an open standalone stream. */
  get standaloneOpen(): boolean {
    return this.standalone?.open === true;
  }

  /** Sends what waited for a standalone stream once another instance serves it. */
  flushWaiting(): void {
    for (const message of this.waiting.splice(0)) this.route(message);
  }

  /** Opens the standalone stream; false if one is already open. */
  openStandalone(res: ServerResponse): boolean {
    if (this.standalone?.open) return false;
    const stream = new SseStream(res, this.streamOptions, this.sessionHeaders);
    this.standalone = stream;
    stream.prime(this.events.mark(STANDALONE));
    for (const message of this.waiting.splice(0)) this.route(message);
    return true;
  }

  /**
   * Resumes the stream `lastEventId` names: replays that stream's later
   * events (never another stream's) and keeps the stream open if its
   * requests are still pending. False when the id names nothing known.
   */
  resume(res: ServerResponse, lastEventId: string): boolean {
    const found = this.events.after(lastEventId);
    if (!found) return false;
    const exchange = this.exchanges.get(found.streamId);
    if (found.streamId !== STANDALONE && !exchange && found.events.length === 0) return false;
    const stream = new SseStream(res, this.streamOptions, this.sessionHeaders);
    for (const event of found.events) stream.send(event.data, event.id);
    if (found.streamId === STANDALONE) {
      this.standalone?.close();
      this.standalone = stream;
      for (const message of this.waiting.splice(0)) this.route(message);
    } else if (exchange) {
      exchange.resume(stream);
    } else {
      stream.close();
    }
    return true;
  }

  /** Ends the session: its streams, and (by unsubscribing) its server connection. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.standalone?.close();
    // Unsubscribing closes the connection (parked calls end as "connection closed")...
    this.subscription?.unsubscribe();
    // ...whose answers cannot be delivered any more: end every POST still waiting.
    for (const exchange of this.exchanges.values()) exchange.close();
    this.exchanges.clear();
    this.byRequest.clear();
    this.mirror?.ended('*');
  }

  /*
   * Only the exchange's own keys are visited: a scan of every request in flight on the session
   * made each answer cost as many steps as there were calls in flight (bench: throughput-http).
   * A key a later POST reused (the same id again) belongs to that POST now, and stays.
   */
  private closeExchange(exchange: PostExchange, keys: readonly string[]): void {
    this.exchanges.delete(exchange.streamId);
    for (const key of keys) if (this.byRequest.get(key) === exchange) this.byRequest.delete(key);
    this.mirror?.ended(exchange.streamId);
  }
}
