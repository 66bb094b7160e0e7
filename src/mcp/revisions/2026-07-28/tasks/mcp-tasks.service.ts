import { randomBytes } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { principalKey } from '../../../authentication/principal-key.js';
import { quotaKeyOf } from '../../../authentication/quota-key.js';
import {
  McpInvalidParamsError,
  McpTooManyRequestsError,
} from '../../../core/errors/protocol.errors.js';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import type { CallToolResult } from '../../../core/protocol/mcp-types.js';
import type { McpToolEntry } from '../../../definitions/interfaces/registry-entry.interface.js';
import type { McpRequest } from '../../../engine/dispatch/mcp-request.interface.js';
import { errorResponse } from '../../../engine/dispatch/error-response.js';
import { McpCreatedTask } from '../../../engine/tools/created-task.js';
import type {
  McpCallPlan,
  McpToolOutcome,
  McpToolTasks,
} from '../../../engine/tools/tool-tasks.interface.js';
import { Subject, type Observable } from 'rxjs';
import { detailedTask, taskFields } from './detailed-task.js';
import { completeResult } from '../modern-result.js';
import { MCP_TASK_STORE, type McpTaskStore } from './task-store.interface.js';
import { McpTaskRequest } from './task-request.js';
import { McpTaskRun } from './task-run.js';
import { declaresTasks, tasksExtensionRequired } from './tasks-extension.js';
import type { McpRevisionSettings } from './tasks-options.interface.js';
import { FINAL_STATUSES, type McpTask, type McpTaskChange } from './task.interface.js';

/** The statuses a running task's changes start from. */
const RUNNING = ['working', 'input_required'] as const;

/** The one answer for a task that does not exist, expired, or is someone else's. */
const UNKNOWN_TASK = 'Unknown or expired task';

/**
 * Tools as durable tasks (docs/tasks.md, SEP-2663): decides which calls become tasks, runs
 * them past their HTTP exchange, keeps their status in the task store, and serves
 * `tasks/get`, `tasks/update` and `tasks/cancel` for their owner only. It is the engine's
 * `MCP_TOOL_TASKS`.
 */
@Injectable()
export class McpTasks implements McpToolTasks, BeforeApplicationShutdown, OnModuleDestroy {
  private readonly logger = new Logger('McpTasks');
  private readonly runs = new Map<string, McpTaskRun>();
  private readonly changes = new Subject<Record<string, unknown>>();
  private readonly serverInfo: object;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpRevisionSettings,
    @Inject(MCP_TASK_STORE) private readonly store: McpTaskStore,
  ) {
    this.serverInfo = Object.freeze({ name: options.name, version: options.version });
  }

  /** Every status change of a task, as `DetailedTask` (what `notifications/tasks` carry). */
  get changed(): Observable<Record<string, unknown>> {
    return this.changes;
  }

  plan(request: McpRequest, tool: McpToolEntry): McpCallPlan {
    if (tool.task === 'never') return 'now';
    if (declaresTasks(request)) return 'task';
    if (tool.task === 'optional') return 'now';
    // SEP-2663: a request that cannot take a task gets -32021; the handshake era has no tasks.
    if (request.era === 'modern') throw tasksExtensionRequired();
    return 'task-only';
  }

  async start(
    request: McpRequest,
    tool: McpToolEntry,
    run: (request: McpRequest) => Promise<CallToolResult>,
  ): Promise<McpToolOutcome> {
    const { ttlMs, immediateMs } = this.options.tasks;
    const taskId = randomBytes(16).toString('base64url');
    const taskRequest = new McpTaskRequest(request, ttlMs, `task:${taskId}`);
    // The handler's first step runs now: a question it asks there is the call's round.
    const running = run(taskRequest);
    if (request.input?.pending) return running;
    if (immediateMs > 0) {
      const early = await settledWithin(running, immediateMs);
      if (early || request.input?.pending) return running;
    }
    const taskRun = new McpTaskRun(taskId, taskRequest);
    taskRequest.promote(
      (method, params, key) => this.ask(taskRun, method, params, key),
      (message) => void this.progress(taskRun, message),
    );
    const task = this.newTask(taskId, request, tool.tool.name);
    this.runs.set(taskId, taskRun);
    // Durable before the caller hears of it: the first change waits for the store to hold it.
    const created = taskRun.queue(() => this.store.create(task, this.options.limits));
    void running.then(
      (result) => this.settle(taskRun, result),
      (error: unknown) => this.settle(taskRun, undefined, error),
    );
    if (!(await created.catch(() => false))) {
      taskRun.cancel('too many tasks');
      this.runs.delete(taskId);
      throw new McpTooManyRequestsError('Too many tasks');
    }
    return new McpCreatedTask(taskFields(task));
  }

  /** `tasks/get`: the task as `DetailedTask`, for its owner only. */
  async get(taskId: string, request: McpRequest): Promise<Record<string, unknown>> {
    return detailedTask(await this.owned(taskId, request));
  }

  /**
   * `tasks/update`: answers to the questions the task waits on, taken before the ack returns
   * (a `tasks/get` right after it shows them gone). Other keys are ignored.
   */
  async update(
    taskId: string,
    responses: Readonly<Record<string, unknown>>,
    request: McpRequest,
  ): Promise<void> {
    const task = await this.owned(taskId, request);
    const run = this.runs.get(task.taskId);
    if (!run || FINAL_STATUSES.has(task.status)) return;
    if (run.inputs.answer(responses) === 0) return;
    await this.waitOn(run);
  }

  /** `tasks/cancel`: cooperative; the task is `cancelled` once its tool settles. */
  async cancel(taskId: string, request: McpRequest): Promise<void> {
    const task = await this.owned(taskId, request);
    if (FINAL_STATUSES.has(task.status)) return;
    const run = this.runs.get(task.taskId);
    if (run) {
      run.cancel('cancelled by tasks/cancel');
      return;
    }
    // Nobody runs it here (its run ended with its process): it can only be cancelled now.
    await this.change(task.taskId, { status: 'cancelled' });
  }

  /** The task ids of `taskIds` that the caller owns (what a listen stream may hear about). */
  async ownedOf(taskIds: readonly string[], request: McpRequest): Promise<string[]> {
    const owner = principalKey(request.principal);
    const tasks = await Promise.all(taskIds.map((taskId) => this.store.get(taskId)));
    return taskIds.filter((_, index) => tasks[index]?.owner === owner);
  }

  /** A graceful shutdown ends every task still running here, and says which. */
  async beforeApplicationShutdown(): Promise<void> {
    const runs = [...this.runs.values()];
    if (runs.length === 0) return;
    this.logger.warn(
      `Shutting down: cancelling ${runs.length} running task(s): ${runs.map((run) => run.taskId).join(', ')}`,
    );
    for (const run of runs) run.cancel('server shutting down');
    await Promise.all(runs.map((run) => this.waitOn(run)));
  }

  async onModuleDestroy(): Promise<void> {
    await this.store.close?.();
  }

  private complete(result: CallToolResult): object {
    return completeResult(result, this.serverInfo, undefined);
  }

  private newTask(taskId: string, request: McpRequest, tool: string): McpTask {
    const { ttlMs, pollIntervalMs } = this.options.tasks;
    const now = new Date();
    const createdAt = now.toISOString();
    return {
      taskId,
      owner: principalKey(request.principal),
      quotaKey: quotaKeyOf(request.principal, request.httpRequest, request.connection.id),
      tool,
      status: 'working',
      createdAt,
      lastUpdatedAt: createdAt,
      ttlMs,
      pollIntervalMs,
      expiresAt: now.getTime() + ttlMs,
    };
  }

  /* The task, when it exists and `request`'s principal owns it; else the unknown-id error. */
  private async owned(taskId: string, request: McpRequest): Promise<McpTask> {
    const task = await this.store.get(taskId);
    if (!task || task.owner !== principalKey(request.principal)) {
      throw new McpInvalidParamsError(UNKNOWN_TASK);
    }
    return task;
  }

  /* A question the running tool asks: the task waits in `input_required` until it is answered. */
  private ask(run: McpTaskRun, method: string, params: object, key?: string): Promise<unknown> {
    if (run.cancelling) return Promise.reject(new Error('task cancelled'));
    const answer = run.inputs.ask(method, modernParams(params), key);
    void this.waitOn(run);
    return answer;
  }

  /* The tool's progress, as the status message of a working task (latest wins). */
  private progress(run: McpTaskRun, message: string): Promise<unknown> {
    return run.queue(async () => {
      const change = { status: 'working', statusMessage: message } as const;
      const changed = await this.store.update(run.taskId, change, ['working']);
      if (changed) this.changes.next(detailedTask(changed));
    });
  }

  /* Writes the run's questions as its status: `input_required` while any waits, else `working`. */
  private waitOn(run: McpTaskRun): Promise<unknown> {
    return run.queue(() => {
      const inputRequests = run.inputs.requests();
      const change: McpTaskChange = inputRequests
        ? { status: 'input_required', inputRequests }
        : { status: 'working' };
      return this.change(run.taskId, change);
    });
  }

  /* The run ended: `cancelled` when it was asked to stop, else its result or its error. */
  private async settle(run: McpTaskRun, result?: CallToolResult, error?: unknown): Promise<void> {
    run.inputs.abandon(new Error('task ended'));
    let change: McpTaskChange;
    if (run.cancelling) change = { status: 'cancelled' };
    // Exactly what the call would have answered: a complete modern result.
    else if (error === undefined) change = { status: 'completed', result: this.complete(result!) };
    else {
      const failure = errorResponse(run.taskId, error, 'tools/call').error as McpTask['error'];
      change = { status: 'failed', error: failure, statusMessage: failure!.message };
    }
    try {
      await run.queue(() => this.change(run.taskId, change));
    } catch (failure) {
      this.logger.error(`Task ${run.taskId} could not be recorded: ${String(failure)}`);
    } finally {
      this.runs.delete(run.taskId);
    }
  }

  /* One status change in the store, told to the listen streams that follow the task. */
  private async change(taskId: string, change: McpTaskChange): Promise<McpTask | undefined> {
    const changed = await this.store.update(taskId, change, RUNNING);
    if (changed) this.changes.next(detailedTask(changed));
    return changed;
  }
}

/* Whether `work` settles within `ms` (its outcome is read from `work` itself). */
function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = work.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

/* The modern era has no elicitation ids: a URL-mode question is judged from the answer itself. */
function modernParams(params: object): object {
  if (!('elicitationId' in params)) return params;
  const { elicitationId: _dropped, ...rest } = params as Record<string, unknown>;
  return rest;
}
