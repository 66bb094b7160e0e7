import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import {
  rootsListChangedEvent,
  type McpRootsListChangedEvent,
} from '../client-events/roots-list-changed.event.js';
import { isJsonObject, isRequestId, type JsonRpcMessage } from '../../core/protocol/jsonrpc.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';
import type { McpMessageOrigin } from './message-origin.interface.js';

/** The client notifications the server acts on (any other is ignored). */
export const HANDLED_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/roots/list_changed',
]);

/**
 * Client notifications, and client responses to server requests. None of
 * them is ever answered; unknown ones are ignored, as JSON-RPC requires.
 * The ones an app may react to are published (see `McpClientEvents`).
 */
@Injectable()
export class McpNotificationsHandler implements OnModuleDestroy {
  private readonly rootsChanged = new Subject<McpRootsListChangedEvent>();
  readonly rootsListChanged$: Observable<McpRootsListChangedEvent> =
    this.rootsChanged.asObservable();

  constructor(private readonly outbound: McpOutboundRequests) {}

  /** `origin` is where the notification came from (its principal goes into published events). */
  handle(
    method: string,
    params: unknown,
    connection: McpConnection,
    origin: McpMessageOrigin,
  ): void {
    switch (method) {
      case 'notifications/initialized':
        connection.initialized = true;
        return;
      case 'notifications/cancelled':
        return this.cancel(params, connection);
      case 'notifications/roots/list_changed':
        // Published whether or not the client declared `roots.listChanged`: it said so anyway.
        if (this.rootsChanged.observed) {
          this.rootsChanged.next(rootsListChangedEvent(connection, origin, this.outbound));
        }
        return;
      default:
        return;
    }
  }

  /** A response to a server→client request (elicitation, sampling, roots). */
  response(message: JsonRpcMessage, connection: McpConnection): void {
    this.outbound.answer(message, connection);
  }

  onModuleDestroy(): void {
    this.rootsChanged.complete();
  }

  private cancel(params: unknown, connection: McpConnection): void {
    if (!isJsonObject(params) || !isRequestId(params.requestId)) return;
    const reason = typeof params.reason === 'string' ? params.reason : 'cancelled by client';
    connection.inflight.get(params.requestId)?.abort(new Error(reason));
  }
}
