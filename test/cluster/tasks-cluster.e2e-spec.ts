import {
  startRoundRobinProxy,
  type RoundRobinProxy,
} from '../../examples/cluster/round-robin-proxy.mjs';
import { Redis } from 'ioredis';
import { envelope } from '../modern/modern-app.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { ClusterInstance, deleteKeys, uniquePrefix } from './cluster-support.js';

/*
 * Tasks in cluster mode (docs/tasks.md): three instances of the cluster fixture, each its own
 * process on one Redis, behind the round-robin proxy. A task created on one instance is read,
 * answered and cancelled through the others; an instance killed while it runs a task leaves
 * that task failed within the heartbeat expiry, and no other instance runs it again.
 */

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { elicitation: {}, extensions: { [TASKS]: {} } };
/** The liveness key outlives the last heartbeat by this much (cluster/cluster-bus.ts). */
const HEARTBEAT_EXPIRY_MS = 3_000;

describeWithService(await findService(TEST_REDIS_URL), 'tasks in cluster mode', (redisUrl) => {
  let prefix: string;
  let instances: ClusterInstance[];
  let bases: string[];
  let proxy: RoundRobinProxy;
  let nextId = 1;

  beforeAll(async () => {
    prefix = uniquePrefix();
    instances = ['a', 'b', 'c'].map(
      (name) => new ClusterInstance(name, { REDIS_URL: redisUrl, CLUSTER_PREFIX: prefix }),
    );
    bases = await Promise.all(instances.map((instance) => instance.base));
    proxy = await startRoundRobinProxy(bases);
  });
  afterAll(async () => {
    await proxy.close();
    await Promise.all(instances.map((instance) => instance.kill()));
    await deleteKeys(redisUrl, prefix);
  });

  /** A modern request to `base` (an instance, or the proxy); `taskId` also goes in Mcp-Name. */
  async function call(base: string, method: string, params: Record<string, unknown>) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
    };
    const named = method === 'tools/call' ? params.name : params.taskId;
    if (typeof named === 'string') headers['mcp-name'] = named;
    const response = await fetch(new URL('/mcp', base), {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method,
        params: { ...params, _meta: envelope(WITH_TASKS) },
      }),
    });
    return (await response.json()) as { result?: any; error?: any };
  }

  /** Opens a listen stream on `base` for `taskIds`; `heard` reads it until a pattern shows. */
  async function listen(base: string, id: string, taskIds: string[]) {
    const abort = new AbortController();
    const response = await fetch(new URL('/mcp', base), {
      method: 'POST',
      signal: abort.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds }, _meta: envelope(WITH_TASKS) },
      }),
    });
    const reader = response.body!.getReader();
    let received = '';
    const heard = async (pattern: RegExp) => {
      while (!pattern.test(received)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}: ${received}`);
        received += new TextDecoder().decode(value);
      }
    };
    return { heard, text: () => received, abort };
  }

  /** Polls `tasks/get` through `base` until `holds` accepts the task. */
  async function taskWhen(base: string, taskId: string, holds: (task: any) => boolean) {
    for (;;) {
      const { result, error } = await call(base, 'tasks/get', { taskId });
      if (error) throw new Error(`tasks/get: ${JSON.stringify(error)}`);
      if (holds(result)) return result;
    }
  }

  it('created on one instance, read and answered through the others, through the proxy too', async () => {
    const [a, b, c] = bases;
    const created = await call(a!, 'tools/call', { name: 'task_ask', arguments: {} });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result.taskId;
    // Durable before it was answered: another instance finds it at once.
    expect((await call(b!, 'tasks/get', { taskId })).result.taskId).toBe(taskId);
    const waiting = await taskWhen(c!, taskId, (task) => task.status === 'input_required');
    expect(Object.keys(waiting.inputRequests)).toEqual(['elicit-0']);
    const ack = await call(b!, 'tasks/update', {
      taskId,
      inputResponses: { 'elicit-0': { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(ack.result.resultType).toBe('complete');
    // Taken in the store before the ack: no instance shows the question any more.
    const right = await call(c!, 'tasks/get', { taskId });
    expect(right.result.inputRequests).toBeUndefined();
    const done = await taskWhen(proxy.url, taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'a: Ada' }]);
  });

  it('cancelled through a third instance: the runner stops it, every instance sees cancelled', async () => {
    const [a, b, c] = bases;
    const created = await call(a!, 'tools/call', {
      name: 'task_wait',
      arguments: { label: 'to-cancel' },
    });
    const taskId = created.result.taskId;
    const working = await taskWhen(b!, taskId, (task) => task.statusMessage !== undefined);
    expect(working).toMatchObject({ status: 'working', statusMessage: 'a (0/1)' });
    expect((await call(c!, 'tasks/cancel', { taskId })).result.resultType).toBe('complete');
    const cancelled = await taskWhen(b!, taskId, (task) => task.status !== 'working');
    expect(cancelled.status).toBe('cancelled');
  });

  it('a listen stream on one instance hears a task that runs on another', async () => {
    const [a, , c] = bases;
    const created = await call(c!, 'tools/call', {
      name: 'task_wait',
      arguments: { label: 'heard' },
    });
    const taskId = created.result.taskId;
    const { heard, text, abort } = await listen(a!, 'listen-a', [taskId]);
    await heard(/notifications\/subscriptions\/acknowledged/);
    expect(text()).toContain(`"taskIds":["${taskId}"]`);
    await call(bases[1]!, 'tasks/cancel', { taskId });
    await heard(/"method":"notifications\/tasks".*"status":"cancelled"/);
    abort.abort();
  });

  it('SIGKILL on the running instance: the task fails within the heartbeat expiry, run once', async () => {
    const [a, b] = bases;
    const created = await call(b!, 'tools/call', {
      name: 'task_wait',
      arguments: { label: 'killed' },
    });
    const taskId = created.result.taskId;
    await taskWhen(a!, taskId, (task) => task.statusMessage === 'b (0/1)');
    const killedAt = Date.now();
    await instances[1]!.kill('SIGKILL');
    const failed = await taskWhen(a!, taskId, (task) => task.status !== 'working');
    const took = Date.now() - killedAt;
    expect(failed).toMatchObject({
      status: 'failed',
      error: {
        code: -32603,
        message: 'The server instance running this task stopped before it ended',
      },
    });
    expect(took).toBeLessThan(HEARTBEAT_EXPIRY_MS + 2_000);
    // Through the proxy (the dead backend skipped) every instance says the same.
    expect((await call(proxy.url, 'tasks/get', { taskId })).result.status).toBe('failed');
    const runs = instances
      .map((instance) => instance.stderr.text.match(/task run killed on \w/g)?.length ?? 0)
      .reduce((sum, count) => sum + count, 0);
    expect(runs).toBe(1);
  });

  it('a listen stream following a task whose instance dies hears it fail, without polling', async () => {
    const [a, , c] = bases;
    const created = await call(c!, 'tools/call', {
      name: 'task_wait',
      arguments: { label: 'followed' },
    });
    const taskId = created.result.taskId;
    await taskWhen(a!, taskId, (task) => task.statusMessage === 'c (0/1)');
    const { heard, text, abort } = await listen(a!, 'listen-followed', [taskId]);
    await heard(/notifications\/subscriptions\/acknowledged/);
    const killedAt = Date.now();
    await instances[2]!.kill('SIGKILL');
    await heard(/"method":"notifications\/tasks".*"status":"failed"/);
    expect(Date.now() - killedAt).toBeLessThan(HEARTBEAT_EXPIRY_MS + 2_000);
    expect(text()).toContain('The server instance running this task stopped before it ended');
    abort.abort();
  });

  it('SIGTERM on the running instance: it writes its task failed before it exits', async () => {
    const [a] = bases;
    const created = await call(a!, 'tools/call', {
      name: 'task_wait',
      arguments: { label: 'stopped' },
    });
    const taskId = created.result.taskId;
    await taskWhen(a!, taskId, (task) => task.statusMessage === 'a (0/1)');
    await instances[0]!.kill('SIGTERM');
    expect(await instances[0]!.exited).toEqual({ code: 0, signal: null });
    // Every instance is gone now: the task as Redis keeps it.
    const redis = new Redis(redisUrl);
    try {
      const stored = JSON.parse((await redis.hget(`${prefix}task:${taskId}`, 't'))!);
      expect(stored).toMatchObject({
        status: 'failed',
        error: { code: -32603, message: 'The server shut down before this task ended' },
      });
    } finally {
      redis.disconnect();
    }
  });
});
