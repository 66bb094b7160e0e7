import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { jsonRpcNotification, type RequestId } from '../../protocol/jsonrpc.js';
import { relateToRequest } from '../../protocol/related-request.js';
import type { McpConnection } from '../../server/connection/mcp-connection.js';
import { META } from '../era.constants.js';

/** What one `subscriptions/listen` asked for (spec: subscriptions). */
export interface McpSubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** One open listen stream. */
interface Listener {
  readonly connection: McpConnection;
  readonly id: RequestId;
  readonly filter: McpSubscriptionFilter;
  readonly end: () => void;
}

/** Which filter flag lets a server-wide notification through. */
const FLAG: Record<string, keyof McpSubscriptionFilter> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
};

/**
 * The open `subscriptions/listen` streams. Each gets only the kinds it asked
 * for, every message tagged with its `subscriptionId` (the listen request's
 * id), on the listen request's own stream. At shutdown each stream is told
 * it ends: `notifications/cancelled` for the listen request, then its
 * final, complete result (spec: cancellation, subscriptions).
 */
@Injectable()
export class McpListeners implements OnApplicationShutdown {
  private readonly open = new Set<Listener>();

  /** Opens a stream; `end` is called when the server ends it. Returns the function that closes it. */
  add(connection: McpConnection, id: RequestId, filter: McpSubscriptionFilter, end: () => void) {
    const listener: Listener = { connection, id, filter, end };
    this.open.add(listener);
    return () => this.open.delete(listener);
  }

  get size(): number {
    return this.open.size;
  }

  /** Sends `method` to the streams that asked for it. */
  notify(method: string, params?: object): void {
    if (this.open.size === 0) return;
    const flag = FLAG[method];
    const uri = (params as { uri?: unknown } | undefined)?.uri;
    for (const listener of this.open) {
      const wanted = flag
        ? listener.filter[flag] === true
        : method === 'notifications/resources/updated' &&
          typeof uri === 'string' &&
          listener.filter.resourceSubscriptions?.includes(uri) === true;
      if (wanted) send(listener, method, params);
    }
  }

  onApplicationShutdown(): void {
    for (const listener of [...this.open]) {
      this.open.delete(listener);
      const cancelled = jsonRpcNotification('notifications/cancelled', {
        requestId: listener.id,
        reason: 'server shutting down',
      });
      listener.connection.send(relateToRequest(cancelled, listener.id));
      listener.end();
    }
  }
}

/* One notification on a listen stream, tagged with its subscription id. */
function send(listener: Listener, method: string, params?: object): void {
  const own = (params as { _meta?: object } | undefined)?._meta;
  const tagged = { ...params, _meta: { ...own, [META.subscriptionId]: listener.id } };
  listener.connection.send(relateToRequest(jsonRpcNotification(method, tagged), listener.id));
}
