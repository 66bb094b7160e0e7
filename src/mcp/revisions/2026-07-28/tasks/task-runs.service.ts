import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { JsonRpcErrorCode } from '../../../core/protocol/error-codes.constants.js';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import type { CallToolResult } from '../../../core/protocol/mcp-types.js';
import { errorResponse } from '../../../engine/dispatch/error-response.js';
import { completeResult } from '../modern-result.js';
import type { McpTaskRequest } from './task-request.js';
import { McpTaskRun } from './task-run.js';
import { McpTaskStatuses } from './task-statuses.service.js';
import type { McpRevisionSettings } from './tasks-options.interface.js';
import type { McpTask, McpTaskChange } from './task.interface.js';

/** How a task ends when the server stops it before its tool did. */
const SHUT_DOWN = {
  code: JsonRpcErrorCode.InternalError,
  message: 'The server shut down before this task ended',
};

/**
 * The tasks running on this instance: each run's questions, progress and end become its
 * status, in order; `tasks/cancel` and `tasks/update` reach a run here, from this instance
 * or, in cluster mode, from another. A graceful shutdown ends every run, and says which.
 */
@Injectable()
export class McpTaskRuns implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private readonly runs = new Map<string, McpTaskRun>();
  private readonly serverInfo: object;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpRevisionSettings,
    private readonly statuses: McpTaskStatuses,
  ) {
    this.serverInfo = Object.freeze({ name: options.name, version: options.version });
  }

  onModuleInit(): void {
    this.statuses.signalled.subscribe((signal) => {
      if (signal.kind === 'cancel') this.cancel(signal.taskId);
      else this.answer(signal.taskId, signal.responses);
    });
  }

  /**
   * Makes `request`'s run the task `task`: its questions and progress go to the task, and its
   * end settles it. Resolves once the store holds the task; false when a bound refused it
   * (the run is then stopped).
   */
  async begin(task: McpTask, request: McpTaskRequest, running: Promise<CallToolResult>) {
    const run = new McpTaskRun(task.taskId, request);
    request.promote(
      (method, params, key) => this.ask(run, method, params, key),
      (message) => void this.progress(run, message),
    );
    this.runs.set(task.taskId, run);
    // Durable before the caller hears of it: every later change waits for this one.
    const created = run.queue(() => this.statuses.store.create(task, this.options.limits));
    void running.then(
      (result) => this.settle(run, result),
      (error: unknown) => this.settle(run, undefined, error),
    );
    if (await created.catch(() => false)) return true;
    run.cancel('too many tasks');
    this.runs.delete(task.taskId);
    return false;
  }

  /** Whether this instance runs `taskId`. */
  has(taskId: string): boolean {
    return this.runs.has(taskId);
  }

  /** Answers for a run here; resolves once its status shows them taken. False if not here. */
  async answer(taskId: string, responses: Readonly<Record<string, unknown>>): Promise<boolean> {
    const run = this.runs.get(taskId);
    if (!run) return false;
    if (run.inputs.answer(responses) > 0) await this.waitOn(run);
    return true;
  }

  /** Stops a run here (it ends `cancelled` once its tool settles). False if not here. */
  cancel(taskId: string): boolean {
    const run = this.runs.get(taskId);
    run?.cancel('cancelled by tasks/cancel');
    return run !== undefined;
  }

  async beforeApplicationShutdown(): Promise<void> {
    const runs = [...this.runs.values()];
    if (runs.length === 0) return;
    const ids = runs.map((run) => run.taskId).join(', ');
    this.logger.warn(`Shutting down: failing ${runs.length} running task(s): ${ids}`);
    for (const run of runs) run.cancel('server shutting down', 'failed');
    await Promise.all(runs.map((run) => run.settled));
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
    const change = { status: 'working', statusMessage: message } as const;
    return run.queue(() => this.statuses.change(run.taskId, change, ['working']));
  }

  /* Writes the run's questions as its status: `input_required` while any waits, else `working`. */
  private waitOn(run: McpTaskRun): Promise<unknown> {
    return run.queue(() => {
      const inputRequests = run.inputs.requests();
      const change: McpTaskChange = inputRequests
        ? { status: 'input_required', inputRequests }
        : { status: 'working' };
      return this.statuses.change(run.taskId, change);
    });
  }

  /* The run ended: as it was asked to stop, else its result (as the call would have answered) or its error. */
  private async settle(run: McpTaskRun, result?: CallToolResult, error?: unknown): Promise<void> {
    if (run.inputs.waiting) run.inputs.abandon(new Error('task ended'));
    let change: McpTaskChange;
    if (run.ending === 'failed') {
      change = { status: 'failed', error: SHUT_DOWN, statusMessage: SHUT_DOWN.message };
    } else if (run.ending === 'cancelled') {
      change = { status: 'cancelled' };
    } else if (error === undefined) {
      change = { status: 'completed', result: completeResult(result!, this.serverInfo, undefined) };
    } else {
      const failure = errorResponse(run.taskId, error, 'tools/call').error as McpTask['error'];
      change = { status: 'failed', error: failure, statusMessage: failure!.message };
    }
    try {
      await run.queue(() => this.statuses.change(run.taskId, change));
    } catch (failure) {
      this.logger.error(`Task ${run.taskId} could not be recorded: ${String(failure)}`);
    } finally {
      this.runs.delete(run.taskId);
      run.ended();
    }
  }
}

/* The modern era has no elicitation ids: a URL-mode question is judged from the answer itself. */
function modernParams(params: object): object {
  if (!('elicitationId' in params)) return params;
  const { elicitationId: _dropped, ...rest } = params as Record<string, unknown>;
  return rest;
}
