import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../../authentication/principal.interface.js';
import type { ToolSeamVerdict } from '../../../authorization/tool-seam-verdict.interface.js';
import type { McpEra } from '../../../core/protocol/era.constants.js';
import type { JsonRpcMessage, RequestId } from '../../../core/protocol/jsonrpc.js';
import type { ClientCapabilities, LoggingLevel } from '../../../core/protocol/mcp-types.js';
import type { McpTransportKind } from '../../../core/protocol/transport-kind.js';
import type { McpInputRound } from '../../../core/multi-round-trip/input-round.js';
import { McpConnection } from '../../../engine/connection/mcp-connection.js';
import { RequestCancellation } from '../../../engine/connection/request-cancellation.js';
import type { McpRequest } from '../../../engine/dispatch/mcp-request.interface.js';

interface ProgressParams {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/* `message (3/10)`, or what of it the tool gave. */
function progressText({ progress, total, message }: ProgressParams): string {
  const count = total === undefined ? `${progress}` : `${progress}/${total}`;
  return message === undefined ? count : `${message} (${count})`;
}

/**
 * A task's connection: nobody reads it, so what the tool sends (its progress) goes to the one
 * listener the task sets, with no stream behind it.
 */
class McpTaskConnection extends McpConnection {
  private listener?: (message: JsonRpcMessage) => void;

  hear(listener: (message: JsonRpcMessage) => void): void {
    this.listener = listener;
  }

  override send(message: JsonRpcMessage): void {
    this.listener?.(message);
  }
}

/** Where a task's questions go once it exists (see `McpTaskRequest.promote`). */
export type McpTaskAsk = (method: string, params: object, key?: string) => Promise<unknown>;

/**
 * The request a tool runs with when its call may become a task. Until the call becomes a task
 * it is the call itself: its questions are the call's multi round-trip round. From then on it
 * outlives the call's HTTP exchange: its own cancellation (`tasks/cancel`), its own
 * connection (nobody listens: a task sends no notifications), and its questions go to the task.
 */
export class McpTaskRequest implements McpRequest {
  private ownConnection?: McpTaskConnection;
  private progress?: (message: string) => void;
  private readonly cancellation = new RequestCancellation();
  private ask?: McpTaskAsk;
  private progressParams?: Record<string, unknown>;
  private readonly connectionId: string;

  constructor(
    private readonly call: McpRequest,
    /** How long the tool may run: the task's TTL. */
    readonly runTimeoutMs: number,
    connectionId: string,
  ) {
    this.connectionId = connectionId;
  }

  get id(): RequestId {
    return this.call.id;
  }
  get method(): string {
    return this.call.method;
  }
  /* Once a task, it has a progress token of its own: `ctx.progress` becomes its status message. */
  get params(): Record<string, unknown> {
    if (!this.ask) return this.call.params;
    if (!this.progressParams) {
      const meta = { ...(this.call.params._meta as object | undefined), progressToken: 'task' };
      this.progressParams = { ...this.call.params, _meta: meta };
    }
    return this.progressParams;
  }

  /* Made when first read: most tools never send anything, nor log a failure naming it. */
  get connection(): McpConnection {
    if (!this.ownConnection) {
      this.ownConnection = new McpTaskConnection(this.connectionId);
      this.ownConnection.hear((message) => {
        if (message.method !== 'notifications/progress' || !this.progress) return;
        this.progress(progressText(message.params as ProgressParams));
      });
    }
    return this.ownConnection;
  }
  get era(): McpEra {
    return this.call.era;
  }
  /* Once a task, no round: nothing it asks is answered by retrying the call. */
  get input(): McpInputRound | undefined {
    return this.ask ? undefined : this.call.input;
  }

  get detached(): boolean {
    return this.ask !== undefined;
  }
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.call.clientCapabilities;
  }
  /* A task logs nothing to its caller: there is no stream to carry it. */
  get logLevel(): LoggingLevel | undefined {
    return undefined;
  }
  get transport(): McpTransportKind {
    return this.call.transport;
  }
  get principal(): McpPrincipal | undefined {
    return this.call.principal;
  }
  /* Kept while the task runs: a caller's quotas (an anonymous caller's, by address) still apply. */
  get httpRequest(): IncomingMessage | undefined {
    return this.call.httpRequest;
  }
  get toolSeam(): ToolSeamVerdict | undefined {
    return this.call.toolSeam;
  }
  get auditId(): string | undefined {
    return this.call.auditId;
  }
  get signal(): AbortSignal {
    return this.cancellation.signal;
  }
  get cancelled(): boolean {
    return this.cancellation.aborted;
  }

  /**
   * From now on the tool's questions go to the task, not to the call's round, and its
   * progress to `progress` (a task's caller polls; nobody listens for notifications).
   */
  promote(ask: McpTaskAsk, progress: (message: string) => void): void {
    this.ask = ask;
    this.progress = progress;
  }

  /** `tasks/cancel`, a refused task or a shutdown: the tool's signal aborts. */
  cancel(reason: string): void {
    this.cancellation.abort(new Error(reason));
  }

  expire(reason: string): void {
    this.cancellation.expire(new Error(reason));
  }

  requestClient(method: string, params: object, key?: string): Promise<unknown> {
    if (this.ask) return this.ask(method, params, key);
    return this.call.requestClient(method, params, key);
  }
}
