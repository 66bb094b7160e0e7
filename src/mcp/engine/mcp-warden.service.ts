import {
  Inject,
  Injectable,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Observable, type Subscription } from 'rxjs';
import type { McpAuditEvent } from '../authorization/audit/mcp-audit-event.interface.js';
import { McpAuditService } from '../authorization/audit/mcp-audit.service.js';
import { McpAuthorizationService } from '../authorization/mcp-authorization.service.js';
import { DEFAULT_CONN_ID } from '../core/mcp.constants.js';
import { jsonRpcNotification } from '../core/protocol/jsonrpc.js';
import { McpRegistry } from '../definitions/mcp-registry.service.js';
import { McpUnguardedSensitiveToolsError } from '../definitions/registry.errors.js';
import { McpConnections } from './connection/mcp-connections.service.js';
import type { McpDispatchOutcome } from './dispatch/dispatch-outcome.js';
import { McpDispatcher } from './dispatch/mcp-dispatcher.service.js';
import type { McpMessageOrigin } from './dispatch/message-origin.interface.js';
import { McpOutboundRequests } from './outbound/mcp-outbound-requests.service.js';
import {
  MCP_CONNECTION_HOOKS,
  type McpConnectionHooks,
} from './connection/connection-hooks.interface.js';
import {
  MCP_NOTIFICATION_RELAY,
  type McpNotificationRelay,
} from './notification-relay.interface.js';

/**
 * What `McpWarden.stats()` reports.
 * @publicApi
 */
export interface McpServerStats {
  connections: number;
  inFlight: number;
  pendingClientRequests: number;
}

const RESOURCE_UPDATED = 'notifications/resources/updated';

/**
 * The transport-agnostic MCP server. Transports hand it one decoded message at
 * a time with the connection it came from, write back what it returns, and
 * drain the connection's outbound channel from `subscribe()`.
 *
 * Not called `McpServer`: the official SDK exports a class of that name, and
 * users import both side by side.
 *
 * @publicApi
 */
@Injectable()
export class McpWarden implements OnApplicationBootstrap, OnModuleDestroy {
  /** Every seam decision and elicitation outcome. */
  readonly audit$: Observable<McpAuditEvent>;
  private listChanges?: Subscription;

  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly connections: McpConnections,
    private readonly registry: McpRegistry,
    private readonly authorization: McpAuthorizationService,
    private readonly outbound: McpOutboundRequests,
    @Inject(MCP_CONNECTION_HOOKS) private readonly hooks: readonly McpConnectionHooks[],
    audit: McpAuditService,
    /** Cluster mode: notifications reach the other instances' clients too. */
    @Optional()
    @Inject(MCP_NOTIFICATION_RELAY)
    private readonly relay: McpNotificationRelay | null = null,
  ) {
    this.audit$ = audit.events$;
    relay?.hear((method, params) => this.deliver(method, params));
  }

  /**
   * Handles one decoded JSON-RPC message (or a batch, for 2025-03-26 sessions)
   * from `connId`, as if it came over the declared transport. Resolves to the
   * response, or null for notifications, responses, cancelled requests and
   * calls parked for approval (their response comes later on `subscribe()`).
   * Never rejects. `subscribe(connId)` first for anything that answers later.
   */
  async handleMessage(message: unknown, connId: string = DEFAULT_CONN_ID): Promise<object | null> {
    const outcome = await this.dispatcher.handle(message, connId);
    return outcome.kind === 'reply' ? outcome.message : null;
  }

  /**
   * What a transport calls: serves one message as `handleMessage` does, from
   * the origin the transport established (the transport it arrived on, the
   * authenticated caller, the HTTP request), and tells a call parked for
   * approval apart from one that will never be answered.
   */
  dispatch(
    message: unknown,
    connId: string,
    origin: McpMessageOrigin,
  ): Promise<McpDispatchOutcome> {
    return this.dispatcher.handle(message, connId, origin);
  }

  /**
   * Opens `connId`'s outbound channel. Any earlier state of `connId` (client
   * capabilities, subscriptions, in-flight requests, parked calls) is
   * dropped first; when the last observer unsubscribes it is dropped again.
   */
  subscribe(connId: string = DEFAULT_CONN_ID): Observable<object> {
    const connection = this.connections.replace(connId);
    // Several observers may share the channel; the connection ends with the last of them.
    let observers = 0;
    return new Observable<object>((subscriber) => {
      observers++;
      const inner = connection.outbound.subscribe(subscriber);
      return () => {
        inner.unsubscribe();
        if (--observers === 0) this.connections.drop(connection);
      };
    });
  }

  /**
   * Sends a notification to every handshake-era connection and to every
   * modern `subscriptions/listen` stream that asked for its kind;
   * `notifications/resources/updated` goes only to those subscribed to its `uri`.
   */
  notify(method: string, params?: object): void {
    this.deliver(method, params);
    this.relay?.relay(method, params);
  }

  /** `notify` for this process's clients only. */
  private deliver(method: string, params?: object): void {
    const uri = method === RESOURCE_UPDATED ? (params as { uri?: unknown })?.uri : undefined;
    for (const hook of this.hooks) hook.notify?.(method, params);
    for (const connection of this.connections.all()) {
      if (!connection.broadcasts) continue;
      if (method === RESOURCE_UPDATED && !connection.subscriptions.has(uri as string)) continue;
      connection.send(jsonRpcNotification(method, params));
    }
  }

  /**
   * Ends `connId`'s long-lived requests as a shutdown would, while its channel
   * is still open so each gets its answer: modern `subscriptions/listen`
   * streams (`notifications/cancelled`, then their final result), calls
   * awaiting the client and calls awaiting an operator (the "connection
   * closed" deny). A transport calls it
   * when its client's input has ended, or before it closes at shutdown, so
   * the in-flight requests it waits for can all finish.
   */
  endStreams(connId: string): void {
    const connection = this.connections.find(connId);
    if (!connection) return;
    // Listen streams and operator asks (the hooks), then the calls awaiting the client.
    for (const hook of this.hooks) hook.endFor(connection);
    this.outbound.abandonFor(connection);
  }

  /**
   * Live counts, for health checks and leak tests: connections, requests in
   * flight (parked calls included), and server→client requests awaiting an
   * answer (approvals, elicitation, sampling, roots).
   */
  stats(): McpServerStats {
    let inFlight = 0;
    for (const connection of this.connections.all()) inFlight += connection.inflight.size;
    return {
      connections: this.connections.size,
      inFlight,
      pendingClientRequests: this.outbound.size,
    };
  }

  /** True only when a tool authorizer is set and its source is `'configured'`. */
  authorizationConfigured(): boolean {
    return this.authorization.authorizationConfigured();
  }

  /** True when a read authorizer is set. */
  readAuthorizationConfigured(): boolean {
    return this.authorization.readAuthorizationConfigured();
  }

  /** Refuses to boot with a sensitive tool and no tool authorizer; then announces list changes. */
  onApplicationBootstrap(): void {
    if (!this.authorization.hasToolAuthorizer()) {
      const unguarded = this.registry.tools().filter((entry) => entry.sensitive);
      if (unguarded.length > 0) {
        throw new McpUnguardedSensitiveToolsError(unguarded.map((entry) => entry.tool.name));
      }
    }
    this.listChanges = this.registry.changes$.subscribe((kind) =>
      this.notify(`notifications/${kind}/list_changed`),
    );
  }

  /** Stops relaying the registry's list changes (Nest calls it at shutdown). */
  onModuleDestroy(): void {
    this.listChanges?.unsubscribe();
  }
}
