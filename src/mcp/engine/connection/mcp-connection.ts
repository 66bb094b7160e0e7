import { Subject } from 'rxjs';
import type { JsonRpcMessage, RequestId } from '../../core/protocol/jsonrpc.js';
import type { ClientCapabilities, LoggingLevel } from '../../core/protocol/mcp-types.js';
import { SteadyMap } from '../../core/common/steady-map.js';
import type { RequestCancellation } from './request-cancellation.js';

/**
 * Everything the server knows about one client connection. It lives from
 * `subscribe(connId)` (or the first message) until the transport unsubscribes;
 * nothing here outlives it, so a re-used `connId` starts clean.
 */
export class McpConnection {
  /** Outbound messages: pushed responses, server requests, notifications. */
  readonly outbound = new Subject<JsonRpcMessage>();
  /** Declared by the client at `initialize`; undefined before. */
  capabilities?: ClientCapabilities;
  protocolVersion?: string;
  initialized = false;
  /** Set once the connection carried a modern request (see `broadcasts`). */
  servedModern = false;
  /** `notifications/message` below this level are not sent. */
  logLevel: LoggingLevel = 'info';
  /** URIs this connection subscribed to with `resources/subscribe`. */
  readonly subscriptions = new Set<string>();
  /** Requests being served, by id, so `notifications/cancelled` can abort them. */
  readonly inflight = new SteadyMap<RequestId, RequestCancellation>();
  private closed = false;
  private readonly closeHooks = new Set<() => void>();

  constructor(readonly id: string) {}

  /** True while a transport is draining `outbound`. */
  get live(): boolean {
    return !this.closed && this.outbound.observed;
  }

  /**
   * Whether server-wide notifications (list changes, resource updates) go to
   * it: not to a connection that only ever spoke the modern era, which gets
   * exactly what it asked for on its `subscriptions/listen` streams.
   */
  get broadcasts(): boolean {
    return !this.servedModern || this.protocolVersion !== undefined;
  }

  /** Pushes a message to the client, if anyone is listening. */
  send(message: JsonRpcMessage): void {
    if (!this.closed) this.outbound.next(message);
  }

  /** Runs `hook` once when the connection closes; returns a function that cancels it. */
  onClose(hook: () => void): () => void {
    if (this.closed) {
      hook();
      return () => undefined;
    }
    this.closeHooks.add(hook);
    return () => this.closeHooks.delete(hook);
  }

  /** Ends the connection: aborts its requests and completes its channel. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const hook of this.closeHooks) hook();
    this.closeHooks.clear();
    for (const controller of this.inflight.values())
      controller.abort(new Error('connection closed'));
    this.inflight.clear();
    this.subscriptions.clear();
    this.outbound.complete();
  }
}
