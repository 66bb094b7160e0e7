import { jest } from '@jest/globals';
import { McpTooManyRequestsError } from '../../../core/errors/protocol.errors.js';
import { resolveMcpOptions } from '../../../options/options.resolver.js';
import type { JsonRpcMessage } from '../../../core/protocol/jsonrpc.js';
import { relatedRequestOf } from '../../../core/protocol/related-request.js';
import { McpConnection } from '../../../engine/connection/mcp-connection.js';
import { McpListeners, type McpSubscriptionFilter } from './mcp-listeners.service.js';
import { McpAuditService } from '../../../authorization/audit/mcp-audit.service.js';
import { McpTasks } from '../tasks/mcp-tasks.service.js';
import { MemoryTaskStore } from '../tasks/memory-task.store.js';
import { McpTaskRuns } from '../tasks/task-runs.service.js';
import { McpTaskStatuses } from '../tasks/task-statuses.service.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/* The tasks as the module builds them, in memory, with an audit nobody listens to. */
function tasksOf(options: ReturnType<typeof resolveMcpOptions>): McpTasks {
  const statuses = new McpTaskStatuses(new MemoryTaskStore(), null);
  const audit = new McpAuditService({ decision: () => undefined, traceIdOf: () => undefined });
  return new McpTasks(options, statuses, new McpTaskRuns(options, statuses, audit));
}

function listeners(maxListensPerPrincipal?: number): McpListeners {
  const options = resolveMcpOptions({
    name: 't',
    version: '1',
    limits: { maxListensPerPrincipal },
  });
  return new McpListeners(options, tasksOf(options));
}

/* A connection and everything sent on it. */
function connection(id = 'c1'): { connection: McpConnection; sent: JsonRpcMessage[] } {
  const conn = new McpConnection(id);
  const sent: JsonRpcMessage[] = [];
  conn.outbound.subscribe((message) => sent.push(message));
  return { connection: conn, sent };
}

function open(
  service: McpListeners,
  filter: McpSubscriptionFilter,
  id: string | number = 'listen-1',
  owner = 'alice',
) {
  const { connection: conn, sent } = connection();
  const end = jest.fn();
  const close = service.add(owner, conn, id, filter, end);
  return { sent, end, close };
}

describe('McpListeners', () => {
  it('sends each list change only to the streams that asked for it', () => {
    const service = listeners();
    const tools = open(service, { toolsListChanged: true }, 1);
    const prompts = open(service, { promptsListChanged: true }, 2);
    const resources = open(service, { resourcesListChanged: true }, 3);
    const nothing = open(service, {}, 4);
    service.notify('notifications/tools/list_changed');
    service.notify('notifications/prompts/list_changed');
    service.notify('notifications/resources/list_changed');
    expect(tools.sent.map((m) => m.method)).toEqual(['notifications/tools/list_changed']);
    expect(prompts.sent.map((m) => m.method)).toEqual(['notifications/prompts/list_changed']);
    expect(resources.sent.map((m) => m.method)).toEqual(['notifications/resources/list_changed']);
    expect(nothing.sent).toEqual([]);
  });

  it('does not pass a false flag', () => {
    const service = listeners();
    const stream = open(service, { toolsListChanged: false });
    service.notify('notifications/tools/list_changed');
    expect(stream.sent).toEqual([]);
  });

  it('sends resources/updated only to the streams subscribed to that URI', () => {
    const service = listeners();
    const one = open(service, { resourceSubscriptions: ['notes://1'] }, 1);
    const both = open(service, { resourceSubscriptions: ['notes://1', 'notes://2'] }, 2);
    const lists = open(service, { resourcesListChanged: true }, 3);
    service.notify('notifications/resources/updated', { uri: 'notes://2' });
    service.notify('notifications/resources/updated', { uri: 'notes://1' });
    service.notify('notifications/resources/updated', { uri: 'notes://3' });
    service.notify('notifications/resources/updated', {});
    expect(one.sent.map((m) => (m.params as { uri: string }).uri)).toEqual(['notes://1']);
    expect(both.sent.map((m) => (m.params as { uri: string }).uri)).toEqual([
      'notes://2',
      'notes://1',
    ]);
    expect(lists.sent).toEqual([]);
  });

  it('sends no other kind of notification on a listen stream', () => {
    const service = listeners();
    const stream = open(service, {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['notes://1'],
    });
    service.notify('notifications/message', { level: 'info', data: 'x', uri: 'notes://1' });
    service.notify('notifications/progress', { progressToken: 1, progress: 1 });
    expect(stream.sent).toEqual([]);
  });

  it('tags every message with the subscription id and relates it to the listen request', () => {
    const service = listeners();
    const stream = open(
      service,
      { toolsListChanged: true, resourceSubscriptions: ['notes://1'] },
      42,
    );
    service.notify('notifications/tools/list_changed');
    service.notify('notifications/resources/updated', {
      uri: 'notes://1',
      _meta: { 'example.com/trace': 't' },
    });
    expect(stream.sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUBSCRIPTION_ID]: 42 } },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'notes://1', _meta: { 'example.com/trace': 't', [SUBSCRIPTION_ID]: 42 } },
      },
    ]);
    for (const message of stream.sent) expect(relatedRequestOf(message)).toBe(42);
  });

  it('tags each of two streams on one change with its own subscription id', () => {
    const service = listeners();
    const a = open(service, { toolsListChanged: true }, 'a');
    const b = open(service, { toolsListChanged: true }, 'b');
    service.notify('notifications/tools/list_changed');
    expect((a.sent[0].params as { _meta: object })._meta).toEqual({ [SUBSCRIPTION_ID]: 'a' });
    expect((b.sent[0].params as { _meta: object })._meta).toEqual({ [SUBSCRIPTION_ID]: 'b' });
    expect(relatedRequestOf(a.sent[0])).toBe('a');
    expect(relatedRequestOf(b.sent[0])).toBe('b');
  });

  it('does not change the params it was given', () => {
    const service = listeners();
    open(service, { resourceSubscriptions: ['notes://1'] });
    const params = { uri: 'notes://1', _meta: { a: 1 } };
    service.notify('notifications/resources/updated', params);
    expect(params).toEqual({ uri: 'notes://1', _meta: { a: 1 } });
  });

  it('sends nothing more to a stream once it is closed', () => {
    const service = listeners();
    const stream = open(service, { toolsListChanged: true });
    stream.close();
    service.notify('notifications/tools/list_changed');
    expect(stream.sent).toEqual([]);
    expect(service.size).toBe(0);
  });

  it('refuses one stream past maxListensPerPrincipal of one owner with -31429', () => {
    const service = listeners(2);
    open(service, {}, 1, 'alice');
    open(service, {}, 2, 'alice');
    let refusal: unknown;
    try {
      open(service, {}, 3, 'alice');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(McpTooManyRequestsError);
    expect((refusal as McpTooManyRequestsError).code).toBe(-31429);
    expect(service.size).toBe(2);
    expect(() => open(service, {}, 4, 'bob')).not.toThrow();
  });

  it('frees the owner’s share when a stream closes, once however often it is closed', () => {
    const service = listeners(2);
    const first = open(service, {}, 1, 'alice');
    open(service, {}, 2, 'alice');
    first.close();
    first.close();
    expect(() => open(service, {}, 3, 'alice')).not.toThrow();
    expect(() => open(service, {}, 4, 'alice')).toThrow(McpTooManyRequestsError);
  });

  describe('beforeApplicationShutdown()', () => {
    it('sends notifications/cancelled for the listen request, then ends the stream', async () => {
      const service = listeners();
      const stream = open(service, { toolsListChanged: true }, 'listen-7');
      const order: string[] = [];
      stream.end.mockImplementation(() => {
        order.push(`end after ${stream.sent.length} message(s)`);
      });
      await service.beforeApplicationShutdown();
      expect(stream.sent).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'listen-7', reason: 'server shutting down' },
        },
      ]);
      expect(relatedRequestOf(stream.sent[0])).toBe('listen-7');
      expect(stream.end).toHaveBeenCalledTimes(1);
      expect(order).toEqual(['end after 1 message(s)']);
    });

    it('ends every open stream and frees their shares', async () => {
      const service = listeners(1);
      const a = open(service, {}, 1, 'alice');
      const b = open(service, {}, 2, 'bob');
      await service.beforeApplicationShutdown();
      expect(a.end).toHaveBeenCalledTimes(1);
      expect(b.end).toHaveBeenCalledTimes(1);
      expect(service.size).toBe(0);
      expect(() => open(service, {}, 3, 'alice')).not.toThrow();
    });

    it('lets the final results produced in promise callbacks go out before it resolves', async () => {
      const service = listeners();
      const { connection: conn, sent } = connection();
      service.add('alice', conn, 'l', {}, () => {
        void Promise.resolve().then(() => conn.send({ jsonrpc: '2.0', id: 'l', result: {} }));
      });
      await service.beforeApplicationShutdown();
      expect(sent.map((m) => m.method ?? 'result')).toEqual(['notifications/cancelled', 'result']);
    });

    it('does nothing without open streams, and does not end a closed one', async () => {
      const service = listeners();
      const stream = open(service, {});
      stream.close();
      await service.beforeApplicationShutdown();
      expect(stream.end).not.toHaveBeenCalled();
      expect(stream.sent).toEqual([]);
    });
  });
});
