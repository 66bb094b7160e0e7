import { MCP_TASK_STORE, type McpTaskStore } from '../../src/index.js';
import type { HttpTestApp } from '../support/http-app.js';
import { bootTasksApp, resetSeen, seen } from './tasks-app.js';
import { raw, taskWhen } from './tasks-wire.js';

/*
 * The tasks' options and bounds (docs/tasks.md, "Options and bounds"), each on an app of its
 * own: the graceful shutdown, tasks.immediateMs, limits.maxTasksPerPrincipal and the TTL.
 */

describe('task options and bounds', () => {
  let t: HttpTestApp | undefined;
  beforeEach(() => resetSeen());
  afterEach(async () => {
    seen.gate.resolve();
    await t?.close();
    t = undefined;
  });

  it('a graceful shutdown fails the tasks still running (their tools stopped), and says which', async () => {
    t = await bootTasksApp('express');
    const warnings: string[] = [];
    const quiet = () => undefined;
    t.app.useLogger({
      log: quiet,
      error: quiet,
      warn: (message) => warnings.push(String(message)),
    });
    const store = t.app.get<McpTaskStore>(MCP_TASK_STORE);
    const created = await raw(t, 1, 'tools/call', {
      name: 'build_report',
      arguments: { title: 'late' },
    });
    const taskId = created.body.result.taskId;
    await taskWhen(t, taskId, (task) => task.statusMessage !== undefined);
    await t.close();
    t = undefined;
    expect(seen.aborted).toBe(1);
    expect(await store.get(taskId)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The server shut down before this task ended' },
    });
    // Named by the start of its id: a whole id is a credential, and logs are read by many.
    expect(warnings).toEqual([
      expect.stringContaining(`failing 1 running task(s): ${taskId.slice(0, 8)}…`),
    ]);
    expect(warnings[0]).not.toContain(taskId);
  });

  it('tasks.immediateMs: work that ends within it answers at once; by default it is a task', async () => {
    t = await bootTasksApp('express', { tasks: { immediateMs: 5_000 } });
    const quick = await raw(t, 1, 'tools/call', { name: 'instant', arguments: {} });
    expect(quick.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'done at once' }],
    });
    // An operator's approval waits inside the task: that call is a task at once.
    const gated = await raw(t, 3, 'tools/call', { name: 'operator_export', arguments: {} });
    expect(gated.body.result).toMatchObject({ resultType: 'task', status: 'working' });
    await raw(t, 4, 'tasks/cancel', { taskId: gated.body.result.taskId });
    await t.close();
    t = await bootTasksApp('express');
    const task = await raw(t, 2, 'tools/call', { name: 'instant', arguments: {} });
    expect(task.body.result.resultType).toBe('task');
    const done = await taskWhen(t, task.body.result.taskId, (it) => it.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'done at once' }]);
  });

  it('limits.maxTasksPerPrincipal refuses one more task with -31429 and aborts the run it had begun', async () => {
    t = await bootTasksApp('express', { limits: { maxTasksPerPrincipal: 2 } });
    for (const id of [1, 2]) {
      const created = await raw(t!, id, 'tools/call', {
        name: 'build_report',
        arguments: { title: 'x' },
      });
      expect(created.body.result.resultType).toBe('task');
    }
    const refused = await raw(t, 3, 'tools/call', {
      name: 'build_report',
      arguments: { title: 'x' },
    });
    expect(refused.body.error).toMatchObject({ code: -31429, message: 'Too many tasks' });
    expect(seen.aborted).toBe(1); // its handler had started: its signal aborted
  });

  it('a task expires after tasks.ttlMs: then its id is unknown (-32602)', async () => {
    t = await bootTasksApp('express', { tasks: { ttlMs: 50 } });
    const created = await raw(t, 1, 'tools/call', { name: 'instant', arguments: {} });
    const taskId = created.body.result.taskId;
    expect(created.body.result.ttlMs).toBe(50);
    const gone = await taskWhen(t, taskId, (task) => task.code === -32602);
    expect(gone.message).toBe('Unknown or expired task');
  });
});
