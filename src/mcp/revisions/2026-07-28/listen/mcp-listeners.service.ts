import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { McpTooManyRequestsError } from '../../../core/errors/protocol.errors.js';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../../authentication/authentication-settings.interface.js';
import { jsonRpcNotification, type RequestId } from '../../../core/protocol/jsonrpc.js';
import { relateToRequest } from '../../../core/protocol/related-request.js';
import type { McpConnection } from '../../../engine/connection/mcp-connection.js';
import { META } from '../../../core/protocol/era.constants.js';
import { McpTasks } from '../tasks/mcp-tasks.service.js';

/** What one `subscriptions/listen` asked for (spec: subscriptions). */
export interface McpSubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks whose status changes it hears (`notifications/tasks`, SEP-2663): the caller's own. */
  taskIds?: string[];
}

/** One open listen stream. */
interface Listener {
  readonly owner: string;
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
export class McpListeners implements BeforeApplicationShutdown {
  private readonly open = new Set<Listener>();
  /* Open streams per caller: each holds a response open, so each caller gets a bounded share. */
  private readonly perOwner = new Map<string, number>();

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpAuthenticationSettings,
    tasks: McpTasks,
  ) {
    tasks.changed.subscribe((task) => {
      if (this.following(task.taskId)) this.notify('notifications/tasks', task.detailed());
    });
  }

  /**
   * Opens a stream for `owner` (the caller's quota key); `end` is called
   * when the server ends it. Returns the function that closes it. Throws
   * -31429 past `limits.maxListensPerPrincipal` open streams of one caller.
   */
  add(
    owner: string,
    connection: McpConnection,
    id: RequestId,
    filter: McpSubscriptionFilter,
    end: () => void,
  ): () => void {
    const held = this.perOwner.get(owner) ?? 0;
    if (held >= this.options.limits.maxListensPerPrincipal) {
      throw new McpTooManyRequestsError('Too many open subscriptions/listen streams');
    }
    this.perOwner.set(owner, held + 1);
    const listener: Listener = { owner, connection, id, filter, end };
    this.open.add(listener);
    return () => this.remove(listener);
  }

  private remove(listener: Listener): void {
    if (!this.open.delete(listener)) return;
    const left = (this.perOwner.get(listener.owner) ?? 1) - 1;
    if (left > 0) this.perOwner.set(listener.owner, left);
    else this.perOwner.delete(listener.owner);
  }

  /* Whether an open stream follows `taskId`. */
  private following(taskId: string): boolean {
    for (const listener of this.open) if (listener.filter.taskIds?.includes(taskId)) return true;
    return false;
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
        : method === 'notifications/tasks'
          ? listener.filter.taskIds?.includes((params as { taskId: string }).taskId) === true
          : method === 'notifications/resources/updated' &&
            typeof uri === 'string' &&
            listener.filter.resourceSubscriptions?.includes(uri) === true;
      if (wanted) send(listener, method, params);
    }
  }

  /**
   * Before the connections close (their hooks run later): every stream hears
   * that it ends, then gets its final result, flushed before the turn ends.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.open.size === 0) return;
    for (const listener of [...this.open]) this.finish(listener, 'server shutting down');
    // The final results are produced in promise callbacks: let them reach the transports.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * Ends the streams of one connection the same way, when its transport is
   * about to go (stdio's input ended): they answer instead of holding it open.
   */
  endFor(connection: McpConnection, reason: string): void {
    for (const listener of [...this.open]) {
      if (listener.connection === connection) this.finish(listener, reason);
    }
  }

  /* `notifications/cancelled` naming the listen request, then its final result. */
  private finish(listener: Listener, reason: string): void {
    this.remove(listener);
    const cancelled = jsonRpcNotification('notifications/cancelled', {
      requestId: listener.id,
      reason,
    });
    listener.connection.send(relateToRequest(cancelled, listener.id));
    listener.end();
  }
}

/* One notification on a listen stream, tagged with its subscription id. */
function send(listener: Listener, method: string, params?: object): void {
  const own = (params as { _meta?: object } | undefined)?._meta;
  const tagged = { ...params, _meta: { ...own, [META.subscriptionId]: listener.id } };
  listener.connection.send(relateToRequest(jsonRpcNotification(method, tagged), listener.id));
}
