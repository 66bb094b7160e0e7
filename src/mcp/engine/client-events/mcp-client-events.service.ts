import { Injectable } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { McpNotificationsHandler } from '../dispatch/mcp-notifications.handler.js';
import type { McpRootsListChangedEvent } from './roots-list-changed.event.js';

/**
 * What clients tell the server outside any request, as Observables a
 * provider subscribes to (in `onModuleInit`, say). An Observable rather than
 * an `@OnMcpRootsListChanged()` method decorator: it needs no discovery pass
 * and no handler pipeline, works from any provider or none, and lets the
 * subscriber filter, debounce per `connId` or unsubscribe with the operators
 * it already knows. It completes when the app shuts down.
 *
 * @example
 * @Injectable()
 * export class Workspace implements OnModuleInit {
 *   private readonly roots = new Map<string, Root[]>();
 *   constructor(private readonly clients: McpClientEvents) {}
 *   onModuleInit() {
 *     this.clients.rootsListChanged$.subscribe((event) => {
 *       event.listRoots().then(
 *         ({ roots }) => this.roots.set(event.connId, roots),
 *         () => this.roots.delete(event.connId), // timed out or gone: forget what we knew
 *       );
 *     });
 *   }
 * }
 * @publicApi
 */
@Injectable()
export class McpClientEvents {
  /**
   * Every `notifications/roots/list_changed`, from any connection, with the
   * connection's id and principal; `listRoots()` fetches the new roots.
   */
  readonly rootsListChanged$: Observable<McpRootsListChangedEvent>;

  constructor(notifications: McpNotificationsHandler) {
    this.rootsListChanged$ = notifications.rootsListChanged$;
  }
}
