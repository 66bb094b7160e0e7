import { Inject, Injectable } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { principalKey } from '../../../authentication/principal-key.js';
import { quotaKeyOf } from '../../../authentication/quota-key.js';
import {
  McpInvalidParamsError,
  McpTooManyRequestsError,
} from '../../../core/errors/protocol.errors.js';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import { JsonRpcErrorCode } from '../../../core/protocol/error-codes.constants.js';
import type { CallToolResult } from '../../../core/protocol/mcp-types.js';
import type { McpToolEntry } from '../../../definitions/interfaces/registry-entry.interface.js';
import type { McpRequest } from '../../../engine/dispatch/mcp-request.interface.js';
import { McpCreatedTask } from '../../../engine/tools/created-task.js';
import type {
  McpCallPlan,
  McpToolOutcome,
  McpToolTasks,
} from '../../../engine/tools/tool-tasks.interface.js';
import { detailedTask, taskFields } from './detailed-task.js';
import type {
  McpConsoleTasks,
  McpConsoleTaskView,
} from '../../../approvals/console/console-tasks.interface.js';
import { McpTaskRequest } from './task-request.js';
import { newTaskId } from './task-id.js';
import { McpTaskRuns } from './task-runs.service.js';
import { McpTaskStatuses, type McpTaskNotice } from './task-statuses.service.js';
import { takenAnswers } from './taken-answers.js';
import { declaresTasks, tasksExtensionRequired } from './tasks-extension.js';
import type { McpRevisionSettings } from './tasks-options.interface.js';
import { FINAL_STATUSES, type McpTask, type McpTaskChange } from './task.interface.js';

/** The one answer for a task that does not exist, expired, or is someone else's. */
const UNKNOWN_TASK = 'Unknown or expired task';

/** How a task ends whose instance stopped before it did. */
const RUNNER_GONE = {
  code: JsonRpcErrorCode.InternalError,
  message: 'The server instance running this task stopped before it ended',
};

/**
 * Tools as durable tasks (docs/tasks.md, SEP-2663): decides which calls become tasks, and
 * serves `tasks/get`, `tasks/update` and `tasks/cancel` for a task's owner only, on whichever
 * instance the request reaches. It is the engine's `MCP_TOOL_TASKS`; the runs are
 * `McpTaskRuns`', the statuses `McpTaskStatuses`'.
 */
@Injectable()
export class McpTasks implements McpToolTasks, McpConsoleTasks {
  /* The remote runners watched for listen streams, by task: how to stop watching. */
  private readonly watched = new Map<string, () => void>();

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpRevisionSettings,
    private readonly statuses: McpTaskStatuses,
    private readonly runs: McpTaskRuns,
  ) {}

  /** Every change of a task (what `notifications/tasks` carry). */
  get changed(): Observable<McpTaskNotice> {
    return this.statuses.changed;
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
    { immediate = true }: { immediate?: boolean } = {},
  ): Promise<McpToolOutcome> {
    const { ttlMs, immediateMs } = this.options.tasks;
    const taskId = newTaskId();
    // Its connection id is its own random one: ids show in logs, audit records and asks, and a
    // task id is a credential (anonymous callers share one owner).
    const taskRequest = new McpTaskRequest(request, ttlMs, `task:${newTaskId().slice(0, 12)}`);
    // The handler's first step runs now: a question it asks there is the call's round.
    const running = run(taskRequest);
    if (request.input?.pending) return running;
    if (immediate && immediateMs > 0) {
      const early = await settledWithin(running, immediateMs);
      if (early || request.input?.pending) return running;
    }
    const task = this.newTask(taskId, request, tool.tool.name);
    if (!(await this.runs.begin(task, taskRequest, running))) {
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
    if (FINAL_STATUSES.has(task.status) || (await this.runs.answer(task.taskId, responses))) {
      return;
    }
    // Another instance runs it: the answers are taken in the store (so a tasks/get anywhere
    // shows them gone), then handed to the runner's waiting tool.
    const taken = task.runner && takenAnswers(task, responses);
    if (!taken) return;
    const change: McpTaskChange = taken.remaining
      ? { status: 'input_required', inputRequests: taken.remaining }
      : { status: 'working' };
    if (!(await this.statuses.change(task.taskId, change, ['input_required']))) return;
    const { runner } = task as Required<McpTask>;
    this.statuses.signal({ kind: 'input', taskId: task.taskId, runner, responses: taken.answers });
  }

  /** `tasks/cancel`: cooperative; the task is `cancelled` once its tool settles. */
  async cancel(taskId: string, request: McpRequest): Promise<void> {
    const task = await this.owned(taskId, request);
    if (FINAL_STATUSES.has(task.status) || this.runs.cancel(task.taskId)) return;
    if (task.runner && task.runner !== this.statuses.cluster?.instance) {
      this.statuses.signal({ kind: 'cancel', taskId: task.taskId, runner: task.runner });
      return;
    }
    // Nobody runs it (its run ended with its process): it can only be cancelled now.
    await this.statuses.change(task.taskId, { status: 'cancelled' });
  }

  /**
   * The task ids of `taskIds` that the caller owns (what a listen stream may hear about). A
   * followed task another instance runs is watched: should that instance die, the task fails
   * at once and the stream hears it, without waiting for a poll.
   */
  async ownedOf(taskIds: readonly string[], request: McpRequest): Promise<string[]> {
    const owner = principalKey(request.principal);
    const tasks = await Promise.all(taskIds.map((taskId) => this.statuses.store.get(taskId)));
    const owned = tasks.filter((task): task is McpTask => task?.owner === owner);
    for (const task of owned) if (this.mayBeOrphaned(task)) this.watchRunner(task);
    return owned.map((task) => task.taskId);
  }

  /** The console's view of the running tasks (ids cut short, owners by subject). */
  async running(limit: number): Promise<readonly McpConsoleTaskView[]> {
    const tasks = (await this.statuses.store.running?.(limit)) ?? [];
    return tasks.map((task) => ({
      shortId: task.taskId.slice(0, 8),
      tool: task.tool,
      status: task.status,
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
      owner: task.owner === '' ? 'anonymous' : task.owner.slice(task.owner.indexOf('\u0000') + 1),
      createdAt: task.createdAt,
    }));
  }

  private newTask(taskId: string, request: McpRequest, tool: string): McpTask {
    const { ttlMs, pollIntervalMs } = this.options.tasks;
    const now = new Date();
    const createdAt = now.toISOString();
    const runner = this.statuses.cluster?.instance;
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
      ...(runner === undefined ? {} : { runner }),
    };
  }

  /* The task, when it exists and `request`'s principal owns it; else the unknown-id error. */
  private async owned(taskId: string, request: McpRequest): Promise<McpTask> {
    const task = await this.statuses.store.get(taskId);
    if (!task || task.owner !== principalKey(request.principal)) {
      throw new McpInvalidParamsError(UNKNOWN_TASK);
    }
    return this.mayBeOrphaned(task) ? ((await this.runnerGone(task)) ?? task) : task;
  }

  /* One watch per task, dropped once the task ends (its runner's death then means nothing). */
  private watchRunner(task: McpTask): void {
    if (this.watched.has(task.taskId)) return;
    const unwatch = this.statuses.cluster!.watch(task.runner!, () => {
      this.watched.get(task.taskId)?.();
      void this.runnerGone(task).catch(() => undefined);
    });
    const ended = this.statuses.changed.subscribe((notice) => {
      if (notice.taskId !== task.taskId || !FINAL_STATUSES.has(notice.status)) return;
      this.watched.get(task.taskId)?.();
    });
    this.watched.set(task.taskId, () => {
      this.watched.delete(task.taskId);
      unwatch();
      ended.unsubscribe();
    });
  }

  /* Whether the store says another instance runs it (only then is its runner's life asked). */
  private mayBeOrphaned(task: McpTask): boolean {
    const instance = this.statuses.cluster?.instance;
    return (
      instance !== undefined &&
      task.runner !== undefined &&
      task.runner !== instance &&
      !FINAL_STATUSES.has(task.status)
    );
  }

  /*
   * A task the store says runs on another instance that no longer beats fails now: no task
   * stays working forever, and none runs twice. Undefined while its runner lives.
   */
  private async runnerGone(task: McpTask): Promise<McpTask | undefined> {
    if (await this.statuses.cluster!.isAlive(task.runner!)) return undefined;
    const change = { status: 'failed', error: RUNNER_GONE, statusMessage: RUNNER_GONE.message };
    const failed = await this.statuses.change(task.taskId, change as McpTaskChange);
    return failed ?? this.statuses.store.get(task.taskId);
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
