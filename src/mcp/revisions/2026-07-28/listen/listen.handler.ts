import { Injectable } from '@nestjs/common';
import { SubscriptionsListenRequestParamsSchema } from '@modelcontextprotocol/core';
import { array, string, type infer as Infer } from 'zod';
import { ReadSeam } from '../../../authorization/seam.decorators.js';
import { jsonRpcNotification } from '../../../core/protocol/jsonrpc.js';
import { relateToRequest } from '../../../core/protocol/related-request.js';
import { McpParkedCall } from '../../../engine/dispatch/parked-call.js';
import { McpMethod } from '../../../engine/dispatch/mcp-method.decorator.js';
import type { McpRequest } from '../../../engine/dispatch/mcp-request.interface.js';
import { META } from '../../../core/protocol/era.constants.js';
import { quotaKeyOf } from '../../../authentication/quota-key.js';
import { McpListeners, type McpSubscriptionFilter } from './mcp-listeners.service.js';
import { McpTasks } from '../tasks/mcp-tasks.service.js';
import { declaresTasks, tasksExtensionRequired } from '../tasks/tasks-extension.js';

/** Task ids one stream may follow. */
const MAX_TASK_IDS = 256;

/* The official params, with the tasks extension's `notifications.taskIds` (SEP-2663). */
const ListenParamsSchema = SubscriptionsListenRequestParamsSchema.extend({
  notifications: SubscriptionsListenRequestParamsSchema.shape.notifications.extend({
    taskIds: array(string()).max(MAX_TASK_IDS).optional(),
  }),
});

type ListenParams = Infer<typeof ListenParamsSchema>;

/**
 * `subscriptions/listen` (modern era): the long-lived request that replaces
 * the handshake era's session-wide notifications and `resources/subscribe`.
 * Its first message is the acknowledgement of what it accepted; it stays
 * open until the client cancels it (closing the HTTP stream, or
 * `notifications/cancelled` on stdio) or the server shuts down. Behind the
 * read seam, which sees what it asks to hear about.
 */
@Injectable()
export class McpListenHandler {
  constructor(
    private readonly listeners: McpListeners,
    private readonly tasks: McpTasks,
  ) {}

  @McpMethod('subscriptions/listen', ListenParamsSchema)
  @ReadSeam()
  async listen(request: McpRequest<ListenParams>): Promise<McpParkedCall> {
    const accepted = acceptedOf(request.params.notifications);
    const taskIds = request.params.notifications.taskIds;
    if (taskIds?.length) {
      // SEP-2663: task notifications need the extension; only the caller's own tasks are heard.
      if (!declaresTasks(request)) throw tasksExtensionRequired();
      accepted.taskIds = await this.tasks.ownedOf([...new Set(taskIds)], request);
    }
    const owner = quotaKeyOf(request.principal, request.httpRequest, request.connection.id);
    // Refused before anything is sent: the caller holds too many streams already.
    let serverEnded!: () => void;
    const ended = new Promise<void>((resolve) => (serverEnded = resolve));
    const close = this.listeners.add(owner, request.connection, request.id, accepted, () =>
      serverEnded(),
    );
    const tag = { [META.subscriptionId]: request.id };
    const ack = jsonRpcNotification('notifications/subscriptions/acknowledged', {
      notifications: accepted,
      _meta: tag,
    });
    request.connection.send(relateToRequest(ack, request.id));
    const cancelled = new Promise<void>((resolve) => {
      // Closed at the abort itself, not a promise turn later: a notification sent right
      // after the cancel (the next stdio line) must not reach it.
      const onAbort = () => {
        close();
        resolve();
      };
      // Cancelled before it got here (stdio serves the next line while guards run): end now.
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener('abort', onAbort, { once: true });
    });
    const final = { _meta: tag };
    return new McpParkedCall(
      Promise.race([ended, cancelled]).then(() => {
        close();
        return final;
      }),
    );
  }
}

/* Only the kinds this server can send, each only when asked for. */
function acceptedOf(asked: ListenParams['notifications']): McpSubscriptionFilter {
  const accepted: McpSubscriptionFilter = {};
  if (asked.toolsListChanged) accepted.toolsListChanged = true;
  if (asked.promptsListChanged) accepted.promptsListChanged = true;
  if (asked.resourcesListChanged) accepted.resourcesListChanged = true;
  if (asked.resourceSubscriptions?.length) {
    accepted.resourceSubscriptions = [...new Set(asked.resourceSubscriptions)];
  }
  return accepted;
}
