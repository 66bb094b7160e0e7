import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { GetTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ADAPTERS, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { modernMessage, postModern } from '../modern/modern-app.js';
import {
  MCP_OPERATOR_DESK,
  McpWarden,
  type McpAuditEvent,
  type McpOperatorDesk,
} from '../../src/index.js';
import {
  bootTasksApp,
  readBlock,
  resetSeen,
  seen,
  tasksClient,
  TASKS,
  WITH_TASKS,
} from './tasks-app.js';
import { raw, taskWhen } from './tasks-wire.js';

/*
 * Tools as durable tasks (SEP-2663) over Streamable HTTP, driven by the official tasks
 * client (@modelcontextprotocol/ext-tasks) where it has an API for the rule, and by raw
 * JSON-RPC where the rule is about the wire itself.
 */

describe.each(ADAPTERS)('tasks over Streamable HTTP (%s)', (variant) => {
  let t: HttpTestApp;

  beforeAll(async () => {
    t = await bootTasksApp(variant);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    resetSeen();
    readBlock.taskId = '';
  });

  it('a task tool answers a CreateTaskResult that tasks/get already finds, then its result', async () => {
    const { client, session, exchanges } = await tasksClient(t.url);
    const execution = await session.callTool('build_report', { title: 'Q3' });
    expect(execution.kind).toBe('task');
    const created = exchanges[0].response.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600_000 });
    expect(created.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/); // 128 random bits, base64url
    for (const absent of ['result', 'error', 'inputRequests', 'requestState', 'task']) {
      expect(created).not.toHaveProperty(absent);
    }
    expect(Number.isInteger(created.pollIntervalMs)).toBe(true);
    // Durable before the caller heard of it.
    const working = await raw(t, 1, 'tasks/get', { taskId: created.taskId });
    expect(working.body.result).toMatchObject({
      resultType: 'complete',
      taskId: created.taskId,
      status: 'working',
    });
    // Its progress is its status message: nobody listens for a task's notifications.
    const progressed = await taskWhen(
      t,
      created.taskId,
      (task) => task.statusMessage !== undefined,
    );
    expect(progressed).toMatchObject({ status: 'working', statusMessage: 'halfway (1/2)' });
    seen.gate.resolve();
    const { outcome } = await execution.settle();
    expect(outcome).toMatchObject({
      status: 'completed',
      result: {
        resultType: 'complete',
        content: [{ type: 'text', text: 'report Q3 ready' }],
      },
    });
    expect(seen.runs).toBe(1);
    await session.close();
    await client.close();
  });

  it('without the extension an optional tool answers at once and a required one is -32021', async () => {
    seen.gate.resolve();
    const plain = new Client(
      { name: 'plain', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await plain.connect(new StreamableHTTPClientTransport(new URL(t.url)));
    const result = await plain.callTool({ name: 'build_report', arguments: { title: 'now' } });
    expect(result.content).toEqual([{ type: 'text', text: 'report now ready' }]);
    await expect(plain.callTool({ name: 'export_all', arguments: {} })).rejects.toMatchObject({
      code: -32021,
    });
    await plain.close();
    const refused = await raw(t, 2, 'tools/call', { name: 'export_all', arguments: {} }, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    expect(seen.runs).toBe(1);
  });

  it('the handshake era has no tasks: tasks/get is -32601, a task-only tool a tool error', async () => {
    seen.gate.resolve();
    const legacy = new LegacyClient({ name: 'legacy', version: '1.0.0' });
    await legacy.connect(new LegacyTransport(new URL(t.url)));
    await expect(
      legacy.request({ method: 'tasks/get', params: { taskId: 'x' } }, GetTaskResultSchema),
    ).rejects.toMatchObject({ code: -32601 });
    const events: McpAuditEvent[] = [];
    const audit = t.app.get(McpWarden).audit$.subscribe((event) => events.push(event));
    const result = (await legacy.callTool({ name: 'export_all', arguments: {} })) as any;
    audit.unsubscribe();
    expect(result).toMatchObject({ isError: true });
    expect(result.content[0].text).toMatch(/runs only as a task/);
    // Its record says why it never ran: a deny linked to the seam's allow.
    const mine = events.filter((event) => event.name === 'export_all');
    expect(mine.map((event) => [event.decision, event.detail ?? null])).toEqual([
      ['allow', null],
      ['deny', 'task_only'],
    ]);
    expect(mine[1]!.of).toBe(mine[0]!.id);
    const optional = await legacy.callTool({ name: 'build_report', arguments: { title: 'old' } });
    expect(optional.content).toEqual([{ type: 'text', text: 'report old ready' }]);
    await legacy.close();
  });

  it('inside a task, ctx.elicit makes it input_required and tasks/update resumes it, each key once', async () => {
    const asked: string[] = [];
    const { client, session, exchanges } = await tasksClient(t.url, {
      answer: (request) => {
        const message = String((request.params as { message?: string }).message);
        asked.push(message);
        return message === 'Go on?'
          ? { action: 'accept', content: { go: true } }
          : { action: 'accept', content: { name: 'Ada' } };
      },
    });
    const execution = await session.callTool('confirm_then_run', {});
    const { outcome } = await execution.settle();
    expect(outcome).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'went on for Ada' }] },
    });
    expect(asked).toEqual(['Go on?', 'Who?']);
    const waits = exchanges
      .map((exchange) => exchange.response.result)
      .filter((result) => result?.status === 'input_required');
    const keys = waits.flatMap((result) => Object.keys(result.inputRequests));
    expect(new Set(keys)).toEqual(new Set(['elicit-0', 'elicit-1']));
    expect(waits[0].inputRequests['elicit-0']).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Go on?' },
    });
    await session.close();
    await client.close();
  });

  it('tasks/update takes only answers of the right shape to waiting keys; the rest is ignored', async () => {
    const created = await raw(t, 3, 'tools/call', { name: 'confirm_then_run', arguments: {} });
    const taskId = created.body.result.taskId;
    await taskWhen(t, taskId, (task) => task.status === 'input_required');
    const ignored = await raw(t, 4, 'tasks/update', {
      taskId,
      inputResponses: { 'unknown-key': { ignored: true }, 'elicit-0': { nonsense: 1 } },
    });
    expect(ignored.body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const still = await raw(t, 5, 'tasks/get', { taskId });
    expect(Object.keys(still.body.result.inputRequests)).toEqual(['elicit-0']);
    const declined = await raw(t, 6, 'tasks/update', {
      taskId,
      inputResponses: { 'elicit-0': { action: 'decline' } },
    });
    expect(declined.body.result.resultType).toBe('complete');
    const done = await taskWhen(t, taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'stopped' }]);
    // A key answered before is not waiting any more: answering it again changes nothing.
    const again = await raw(t, 7, 'tasks/update', {
      taskId,
      inputResponses: { 'elicit-0': { action: 'accept', content: { go: true } } },
    });
    expect(again.body.result.resultType).toBe('complete');
    expect((await raw(t, 8, 'tasks/get', { taskId })).body.result.status).toBe('completed');
  });

  it('ctx.listRoots and ctx.sample inside a task: input_required, one question at a time', async () => {
    const declared = { sampling: {}, roots: {}, extensions: { [TASKS]: {} } };
    const created = await raw(t, 30, 'tools/call', { name: 'consult', arguments: {} }, declared);
    const taskId = created.body.result.taskId;
    const asksRoots = await taskWhen(t, taskId, (task) => task.status === 'input_required');
    expect(asksRoots.inputRequests).toEqual({ 'roots-0': { method: 'roots/list', params: {} } });
    await raw(t, 31, 'tasks/update', {
      taskId,
      inputResponses: { 'roots-0': { roots: [{ uri: 'file:///srv/a' }] } },
    });
    const asksModel = await taskWhen(t, taskId, (task) => task.inputRequests?.['sample-1']);
    expect(asksModel.inputRequests['sample-1']).toMatchObject({
      method: 'sampling/createMessage',
      params: { maxTokens: 20 },
    });
    expect(asksModel.inputRequests).not.toHaveProperty('roots-0');
    await raw(t, 32, 'tasks/update', {
      taskId,
      inputResponses: {
        'sample-1': { role: 'assistant', model: 'm', content: { type: 'text', text: 'a' } },
      },
    });
    const done = await taskWhen(t, taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'file:///srv/a → a' }]);
  });

  it('tasks/cancel aborts the tool; the task ends cancelled once it settles; again is the same ack', async () => {
    const { client, session } = await tasksClient(t.url);
    const execution = await session.callTool('build_report', { title: 'never' });
    await execution.cancel();
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe('cancelled');
    expect(seen.aborted).toBe(1);
    const taskId = execution.handle!.taskId;
    const again = await raw(t, 9, 'tasks/cancel', { taskId });
    expect(again.body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const task = await raw(t, 10, 'tasks/get', { taskId });
    expect(task.body.result).toMatchObject({ status: 'cancelled' });
    expect(task.body.result).not.toHaveProperty('result');
    await session.close();
    await client.close();
  });

  it('a protocol error fails the task with that error; a tool error result completes it', async () => {
    const { client, session } = await tasksClient(t.url);
    const broken = await (await session.callTool('broken', {})).settle();
    expect(broken.outcome.status).toBe('failed');
    const failed = await raw(t, 11, 'tasks/get', { taskId: broken.lastTask!.taskId });
    expect(failed.body.result).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'the export store is gone' },
    });
    expect(failed.body.result).not.toHaveProperty('result');
    const toolError = await (await session.callTool('tool_error', {})).settle();
    expect(toolError.outcome).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: 'no such export' }] },
    });
    await session.close();
    await client.close();
  });

  it('the approval round ends before the task exists; the approved retry becomes the task', async () => {
    const questions: unknown[] = [];
    const { client, session, exchanges } = await tasksClient(t.url, {
      answer: (request) => {
        questions.push(request.params);
        return { action: 'accept', content: { approve: true } };
      },
    });
    const execution = await session.callTool('guarded_export', {});
    const { outcome } = await execution.settle();
    expect(outcome).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'guarded export done' }] },
    });
    expect(questions).toEqual([expect.objectContaining({ message: 'Export everything?' })]);
    const [first, retry] = exchanges.map((exchange) => exchange.response.result);
    expect(first).toMatchObject({ resultType: 'input_required' });
    expect(first).not.toHaveProperty('taskId');
    expect(retry).toMatchObject({ resultType: 'task', status: 'working' });
    expect(retry).not.toHaveProperty('requestState');
    expect(seen.runs).toBe(1);
    await session.close();
    await client.close();
  });

  it('an operator ask keeps the task working, saying it waits; the decision ends it', async () => {
    const desk = t.app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
    const olivia = { subject: 'olivia', scopes: ['mcp:approve'] };
    for (const approve of [true, false]) {
      const created = await raw(t, `op-${approve}`, 'tools/call', {
        name: 'operator_export',
        arguments: {},
      });
      expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created.body.result.taskId;
      const waiting = await taskWhen(t, taskId, (task) => task.statusMessage !== undefined);
      expect(waiting).toMatchObject({ status: 'working' });
      expect(waiting.statusMessage).toMatch(/^waiting for an operator to approve/);
      const [ask] = (await desk.pending()).asks.filter((item) => item.tool === 'operator_export');
      const decided = await desk.decide(ask!.id, olivia, {
        approve,
        reason: approve ? undefined : 'not this quarter',
        via: 'api',
      });
      expect(decided.ok).toBe(true);
      const done = await taskWhen(t, taskId, (task) => task.status !== 'working');
      expect(done.status).toBe('completed');
      if (approve) {
        expect(done.result.content).toEqual([{ type: 'text', text: 'operator export done' }]);
      } else {
        expect(done.result).toMatchObject({ isError: true });
        expect(JSON.stringify(done.result)).toContain('operator denied: not this quarter');
      }
    }
    expect(seen.runs).toBe(1);
  });

  it('unknown ids are -32602; tasks/result and tasks/list are -32601; no extension is -32021 first', async () => {
    const unknown = await raw(t, 12, 'tasks/get', { taskId: 'no-such-task' });
    expect(unknown.body.error).toMatchObject({ code: -32602, message: 'Unknown or expired task' });
    for (const method of ['tasks/update', 'tasks/cancel']) {
      const params = { taskId: 'no-such-task', inputResponses: {} };
      expect((await raw(t, 13, method, params)).body.error.code).toBe(-32602);
    }
    for (const method of ['tasks/result', 'tasks/list']) {
      expect((await raw(t, 14, method, { taskId: 'x' })).body.error.code).toBe(-32601);
    }
    const undeclared = await raw(t, 15, 'tasks/get', { taskId: 'no-such-task' }, {});
    expect(undeclared.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });

  it('Mcp-Name must name the task: -32020 with HTTP 400 otherwise', async () => {
    const created = await raw(t, 16, 'tools/call', {
      name: 'build_report',
      arguments: { title: 'h' },
    });
    const taskId = created.body.result.taskId;
    const wrong = await raw(t, 17, 'tasks/get', { taskId }, WITH_TASKS, { 'mcp-name': 'other' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe(-32020);
    seen.gate.resolve();
    await taskWhen(t, taskId, (task) => task.status === 'completed');
  });

  it('every tasks/* request passes the read seam, which sees the task id', async () => {
    const created = await raw(t, 18, 'tools/call', {
      name: 'build_report',
      arguments: { title: 'r' },
    });
    const taskId = created.body.result.taskId;
    readBlock.taskId = taskId;
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const denied = await raw(t, 19, method, { taskId, inputResponses: {} });
      expect(denied.body.error).toEqual({
        code: -31403,
        message: `authorization_required: ${method}`,
        data: { error: 'authorization_required', method, detail: 'not for you' },
      });
    }
    expect(seen.aborted).toBe(0); // the denied cancel did nothing
    readBlock.taskId = '';
    seen.gate.resolve();
    await taskWhen(t, taskId, (task) => task.status === 'completed');
  });

  it('a listen stream naming the task hears notifications/tasks with the whole task', async () => {
    const created = await raw(t, 20, 'tools/call', {
      name: 'build_report',
      arguments: { title: 'n' },
    });
    const taskId = created.body.result.taskId;
    const abort = new AbortController();
    const response = await postModern(
      t,
      modernMessage(
        'listen-t',
        'subscriptions/listen',
        { notifications: { taskIds: [taskId, 'not-mine'] } },
        WITH_TASKS,
      ),
      {},
      abort,
    );
    const reader = new SseReader(response);
    const ack = await reader.waitForMessage(
      (message) => message.method === 'notifications/subscriptions/acknowledged',
    );
    expect(ack.params.notifications).toEqual({ taskIds: [taskId] });
    seen.gate.resolve();
    const notice = await reader.waitForMessage(
      (message) =>
        message.method === 'notifications/tasks' && message.params.status === 'completed',
    );
    expect(notice.params).toMatchObject({
      taskId,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'report n ready' }] },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-t' },
    });
    const closed = t.nextSocketClose();
    abort.abort();
    await closed;
    const undeclared = await raw(
      t,
      21,
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      {},
    );
    expect(undeclared.body.error.code).toBe(-32021);
  });
});
