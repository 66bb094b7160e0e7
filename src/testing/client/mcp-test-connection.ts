import { filter, firstValueFrom, Subject, type Observable, type Subscription } from 'rxjs';
import type { McpMessageOrigin } from '../../mcp/engine/dispatch/message-origin.interface.js';
import type { McpWarden } from '../../mcp/engine/mcp-warden.service.js';
import {
  isJsonObject,
  isRequestId,
  type JsonRpcMessage,
  type RequestId,
} from '../../mcp/core/protocol/jsonrpc.js';
import { McpCallerApprover } from './caller-approver.js';
import { McpTestClientError } from './mcp-test-client.error.js';
import type { JsonRpcServerMessage, JsonRpcServerNotification } from './mcp-test-client.types.js';
import { McpPendingResponses } from './pending-responses.js';
import { McpServerRequestResponder } from './server-request.responder.js';

type ServerRequest = JsonRpcMessage & { id: RequestId; method: string };

/**
 * The wire half of `McpTestClient`: one connection to an in-process
 * `McpWarden`, the way a transport drives it. It opens the connection's
 * outbound channel, sends each message through `dispatch()` with the
 * client's origin, waits for parked calls' responses on the channel, answers
 * the server's requests, and records the server's notifications.
 */
export class McpTestConnection {
  /** Every message the server sends this client, as it arrives (hot: no replay). */
  readonly outbound: Observable<JsonRpcServerMessage>;
  protected readonly approver = new McpCallerApprover();
  protected readonly responder: McpServerRequestResponder;
  private readonly pending = new McpPendingResponses();
  private readonly received = new Subject<JsonRpcServerMessage>();
  private readonly recorded: JsonRpcServerNotification[] = [];
  private channel?: Subscription;
  private nextId = 1;
  private closed = false;

  protected constructor(
    private readonly warden: McpWarden,
    /** The connection id the server knows this client by (unique per client). */
    readonly connId: string,
    /** Where the server believes this client's messages come from. */
    readonly origin: McpMessageOrigin,
  ) {
    this.responder = new McpServerRequestResponder(this.approver, (id) => this.pending.request(id));
    this.outbound = this.received.asObservable();
  }

  /** Every notification the server sent this client so far, oldest first. */
  get notifications(): readonly JsonRpcServerNotification[] {
    return this.recorded;
  }

  /**
   * Sends a request and resolves with its result, waiting for the approval a
   * parked call needs. A JSON-RPC error reply rejects with `McpTestClientError`.
   * For methods the typed helpers do not cover.
   *
   * @example
   * await client.request('resources/subscribe', { uri: 'notes://index' });
   */
  async request<R extends object = Record<string, unknown>>(
    method: string,
    params?: object,
  ): Promise<R> {
    if (this.closed) throw new Error(`The MCP test client ${this.connId} is closed`);
    const id = this.nextId++;
    const message =
      params === undefined
        ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params };
    const sent = { method, params: (params ?? {}) as Record<string, unknown> };
    const later = this.pending.expect(id, sent);
    const outcome = await this.warden.dispatch(message, this.connId, this.origin);
    let response: JsonRpcMessage;
    if (outcome.kind === 'parked') {
      response = await later;
    } else {
      this.pending.forget(id);
      if (outcome.kind === 'none' || Array.isArray(outcome.message)) {
        throw new Error(`${method} (id ${id}) will never be answered: it was cancelled`);
      }
      response = outcome.message;
    }
    return resultOf<R>(method, response);
  }

  /** Sends a notification (`notifications/cancelled`, `…/roots/list_changed`, …). */
  async notify(method: string, params?: object): Promise<void> {
    const message =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    await this.warden.dispatch(message, this.connId, this.origin);
  }

  /**
   * The next notification (of `method`, when given) the server sends from
   * now on: start waiting before you trigger it.
   *
   * @example
   * const changed = client.nextNotification('notifications/tools/list_changed');
   * registry.registerTool({ ... });
   * await changed;
   */
  nextNotification(method?: string): Promise<JsonRpcServerNotification> {
    const matches = (message: JsonRpcServerMessage): message is JsonRpcServerNotification =>
      'method' in message &&
      !('id' in message) &&
      (method === undefined || message.method === method);
    return firstValueFrom(this.received.pipe(filter(matches)));
  }

  /**
   * Ends the connection, as a transport does when its client goes away: the
   * server drops its state (capabilities, subscriptions, parked calls), and
   * requests still waiting here reject. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.channel?.unsubscribe();
    this.end();
  }

  /**
   * Opens the outbound channel. It must come before `initialize`: the server
   * asks for approval only on a connection with a live channel.
   */
  protected open(): void {
    this.channel = this.warden.subscribe(this.connId).subscribe({
      next: (message) => this.receive(message as JsonRpcServerMessage),
      // The server ended the connection (the app closed, or the connId was re-subscribed).
      complete: () => this.end(),
    });
  }

  private receive(message: JsonRpcServerMessage): void {
    const raw = message as JsonRpcMessage;
    if (typeof raw.method === 'string' && isRequestId(raw.id)) {
      void this.answer(raw as ServerRequest);
    } else if (typeof raw.method === 'string') {
      this.recorded.push(message as JsonRpcServerNotification);
    } else if (isRequestId(raw.id)) {
      this.pending.settle(raw.id, raw);
    }
    this.received.next(message);
  }

  private async answer(request: ServerRequest): Promise<void> {
    const response = await this.responder.respond(request);
    if (!this.closed) await this.warden.dispatch(response, this.connId, this.origin);
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending.rejectAll(new Error(`The MCP test client ${this.connId} was closed`));
    this.received.complete();
  }
}

/* A response's result, or its error as the typed rejection. */
function resultOf<R>(method: string, response: JsonRpcMessage): R {
  const { error } = response;
  if (isJsonObject(error)) {
    const code = typeof error.code === 'number' ? error.code : 0;
    throw new McpTestClientError(method, code, String(error.message ?? ''), error.data);
  }
  return response.result as R;
}
