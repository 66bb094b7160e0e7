import { resolve } from 'node:path';
import { StdioScript } from '../support/stdio-child.js';
import { envelope } from '../modern/modern-app.js';
import { TASKS, WITH_TASKS } from './tasks-app.js';
import { logDir, recordsOf, verifySource } from '../audit/audit-app.js';

/*
 * Tasks over real stdio, raw lines, against a child process
 * (test/fixtures/tasks/tasks-stdio-app.mjs on the built framework; `npm run build` first):
 * the same rules as over HTTP, with no headers to route by.
 */

const APP = resolve(process.cwd(), 'test/fixtures/tasks/tasks-stdio-app.mjs');
type Message = Record<string, any>;

describe('tasks over stdio', () => {
  let child: StdioScript;
  let auditDir: string;

  beforeAll(() => {
    auditDir = logDir();
    child = new StdioScript(APP, { AUDIT_DIR: auditDir });
  });
  afterAll(() => child.dispose());

  function modern(
    method: string,
    params: Record<string, unknown> = {},
    capabilities: object = WITH_TASKS,
  ): Promise<Message> {
    return child.request(method, { ...params, _meta: envelope(capabilities) });
  }

  /** Asks `tasks/get` until the task is in a state `holds` accepts (one request at a time). */
  async function taskWhen(taskId: string, holds: (task: Message) => boolean): Promise<Message> {
    for (;;) {
      const reply = await modern('tasks/get', { taskId });
      if (holds(reply.result)) return reply.result;
    }
  }

  it('a call becomes a task; its progress is its status message; it ends with its result', async () => {
    const created = await modern('tools/call', { name: 'waits', arguments: {} });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result.taskId;
    const progressed = await taskWhen(taskId, (task) => task.statusMessage !== undefined);
    expect(progressed.statusMessage).toBe('waiting (1/2)');
    const opened = await modern('tools/call', { name: 'open_gate', arguments: {} });
    expect(opened.result.content).toEqual([{ type: 'text', text: 'opened' }]);
    const done = await taskWhen(taskId, (task) => task.status === 'completed');
    expect(done.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'waited' }],
    });
  });

  it('a question inside the task: input_required, then tasks/update resumes it', async () => {
    const created = await modern('tools/call', { name: 'asks', arguments: {} });
    const taskId = created.result.taskId;
    const waiting = await taskWhen(taskId, (task) => task.status === 'input_required');
    expect(waiting.inputRequests).toEqual({
      'elicit-0': {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Your name?' }),
      },
    });
    const ack = await modern('tasks/update', {
      taskId,
      inputResponses: { 'elicit-0': { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(ack.result.resultType).toBe('complete');
    const done = await taskWhen(taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });

  it('tasks/cancel ends a running task cancelled', async () => {
    const created = await modern('tools/call', { name: 'waits', arguments: {} });
    const taskId = created.result.taskId;
    const ack = await modern('tasks/cancel', { taskId });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    const cancelled = await taskWhen(taskId, (task) => task.status !== 'working');
    expect(cancelled.status).toBe('cancelled');
  });

  it('without the extension: -32021 for a task-only tool and for tasks/get; unknown ids -32602', async () => {
    const refused = await modern('tools/call', { name: 'only_task', arguments: {} }, {});
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    const get = await modern('tasks/get', { taskId: 'x' }, {});
    expect(get.error.code).toBe(-32021);
    const unknown = await modern('tasks/get', { taskId: 'x' });
    expect(unknown.error).toEqual({ code: -32602, message: 'Unknown or expired task' });
    const only = await modern('tools/call', { name: 'only_task', arguments: {} });
    const done = await taskWhen(only.result.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'only as a task' }]);
  });

  it('the handshake era on the same process has no tasks', async () => {
    await child.initialize();
    const get = await child.request('tasks/get', { taskId: 'x' });
    expect(get.error.code).toBe(-32601);
    const only = await child.request('tools/call', { name: 'only_task', arguments: {} });
    expect(only.result).toMatchObject({ isError: true });
  });

  it('every task left its decision, and its outcome when it ended, linked; the chain verifies', async () => {
    // Closing stdin ends the server: it drains its sink before it exits.
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    const records = (await recordsOf(auditDir)).filter((record) => record.seam !== 'read');
    const story = (name: string) =>
      records
        .filter((record) => record.name === name)
        .map((record) => [
          record.kind,
          record.kind === 'outcome' ? record.outcome : record.decision,
          record.detail ?? null,
        ]);
    // waits: completed once its gate opened, then cancelled; asks: completed after its question.
    expect(story('waits')).toEqual([
      ['decision', 'allow', null],
      ['outcome', 'ok', null],
      ['decision', 'allow', null],
      ['outcome', 'cancelled', null],
    ]);
    expect(story('asks')).toEqual([
      ['decision', 'allow', null],
      ['outcome', 'ok', null],
    ]);
    // only_task: refused twice (no extension, then the handshake era), run once as a task.
    expect(story('only_task')).toEqual([
      ['decision', 'allow', null],
      ['decision', 'deny', 'task_only'],
      ['decision', 'allow', null],
      ['outcome', 'ok', null],
      ['decision', 'allow', null],
      ['decision', 'deny', 'task_only'],
    ]);
    for (const record of records.filter((r) => r.of !== undefined)) {
      const decision = records.find((r) => r.id === record.of);
      expect(decision).toMatchObject({ kind: 'decision', seam: 'tool', decision: 'allow' });
    }
    expect(records.every((record) => record.transport === 'stdio')).toBe(true);
    expect(await verifySource(auditDir)).toEqual([expect.objectContaining({ breaks: [] })]);
  });
});
