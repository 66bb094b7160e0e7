import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { McpAuditService } from '../../../authorization/audit/mcp-audit.service.js';
import { JsonRpcErrorCode } from '../../../core/protocol/error-codes.constants.js';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import type { CallToolResult } from '../../../core/protocol/mcp-types.js';
import { errorResponse } from '../../../engine/dispatch/error-response.js';
import { completeResult } from '../modern-result.js';
import { modernParams } from '../../../core/multi-round-trip/input-round.js';
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
const SHUT_DOWN_CHANGE: McpTaskChange = {
  status: 'failed',
  error: SHUT_DOWN,
  statusMessage: SHUT_DOWN.message,
};

/** How long a graceful shutdown waits for stopped tools to settle before it writes them failed. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * The tasks running on this instance: each run's questions, progress and end become its
 * status, in order; `tasks/cancel` and `tasks/update` reach a run here, from this instance
 * or, in cluster mode, from another. A graceful shutdown ends every run, and says which.
 */
@Injectable()
export class McpTaskRuns implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpTasks');
  private readonly runs = new Map<string, McpTaskRun>();
  private readonly serverInfo: object;
  private drained?: Promise<void>;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpRevisionSettings,
    private readonly statuses: McpTaskStatuses,
    private readonly audit: McpAuditService,
  ) {
    this.serverInfo = Object.freeze({ name: options.name, version: options.version });
  }

  onModuleInit(): void {
    this.statuses.signalled.subscribe((signal) => {
      if (signal.kind === 'cancel') this.cancel(signal.taskId);
      else this.answer(signal.taskId, signal.responses).catch((error) => this.unwritten(error));
    });
    // In cluster mode the bus waits for this before it closes the store's connection.
    this.statuses.cluster?.beforeClose(() => this.drain());
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
      (message) => this.progress(run, message),
    );
    this.runs.set(task.taskId, run);
    // Durable before the caller hears of it: every later change waits for this one.
    const created = run.queue(() => this.statuses.store.create(task, this.options.limits));
    void running.then(
      (result) => this.settle(run, result),
      (error: unknown) => this.settle(run, undefined, error),
    );
    let kept: boolean;
    try {
      kept = await created;
    } catch (error) {
      // The store failed: the run stops, and the call fails as any internal error does.
      run.cancel('the task could not be kept');
      this.runs.delete(task.taskId);
      throw error;
    }
    if (kept) return true;
    run.cancel('too many tasks');
    this.runs.delete(task.taskId);
    return false;
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

  /** A graceful shutdown ends the runs here, before the store closes (see `drain`). */
  onModuleDestroy(): Promise<void> {
    return this.drain();
  }

  /**
   * Stops every run here and writes each `failed` ("the server shut down"): a tool that
   * settles within `SHUTDOWN_GRACE_MS` is written by its own settle, the others now. Logs
   * which tasks (by the start of their ids: a whole id is a credential). Once only.
   */
  drain(): Promise<void> {
    this.drained ??= this.stopAll();
    return this.drained;
  }

  private async stopAll(): Promise<void> {
    const runs = [...this.runs.values()];
    if (runs.length === 0) return;
    const ids = runs.map((run) => `${run.taskId.slice(0, 8)}…`).join(', ');
    this.logger.warn(`Shutting down: failing ${runs.length} running task(s): ${ids}`);
    for (const run of runs) run.cancel('server shutting down', 'failed');
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)));
    await Promise.race([Promise.all(runs.map((run) => run.settled)), grace]);
    clearTimeout(timer);
    // A tool that ignores its signal is not waited for: its task is written failed all the same,
    // and its outcome recorded now, while the audit journal still keeps records (it drains after
    // this): `cancelled`, `shutdown_before_end`, for a tool that had not ended, whatever it does
    // after (docs/audit.md).
    const unsettled = runs.filter((run) => this.runs.has(run.taskId));
    for (const run of unsettled) {
      const name = (run.request.params as { name?: string }).name ?? '';
      const ranMs = performance.now() - run.startedAt;
      this.audit.outcome(run.request, name, 'cancelled', ranMs, 'shutdown_before_end');
    }
    await Promise.all(
      unsettled.map((run) =>
        this.statuses.change(run.taskId, SHUT_DOWN_CHANGE).catch(() => undefined),
      ),
    );
  }

  /* A question the running tool asks: the task waits in `input_required` until it is answered. */
  private ask(run: McpTaskRun, method: string, params: object, key?: string): Promise<unknown> {
    if (run.cancelling) return Promise.reject(new Error('task cancelled'));
    const answer = run.inputs.ask(method, modernParams(params), key);
    this.waitOn(run).catch((error) => this.unwritten(error));
    return answer;
  }

  /*
   * The tool's progress, as the status message of a working task. Latest wins: while one write
   * waits its turn, later progress replaces its message instead of queueing more writes, so a
   * tool reporting every row costs the store one write at a time.
   */
  private progress(run: McpTaskRun, message: string): void {
    if (run.progressMessage !== undefined) {
      run.progressMessage = message;
      return;
    }
    run.progressMessage = message;
    run
      .queue(() => {
        const statusMessage = run.progressMessage!;
        run.progressMessage = undefined;
        return this.statuses.change(run.taskId, { status: 'working', statusMessage }, ['working']);
      })
      .catch((error) => this.unwritten(error));
  }

  /* A status write that failed (the store is away): logged; the task's next change tries again. */
  private unwritten(error: unknown): void {
    this.logger.error(`A task's status could not be written: ${String(error)}`);
  }

  /* Writes the run's questions as its status: `input_required` while any waits, else `working`. */
  private waitOn(run: McpTaskRun): Promise<unknown> {
    return run.queue(() => {
      const inputRequests = run.inputs.requests();
      const change: McpTaskChange = inputRequests
        ? { status: 'input_required', inputRequests }
        : { status: 'working' };
      return this.statuses.change(run.taskId, change).then((changed) => {
        // Ended elsewhere (an instance that took it for dead, its TTL): the tool stops too.
        if (!changed && !run.cancelling) run.cancel('the task ended elsewhere');
        return changed;
      });
    });
  }

  /* The run ended: as it was asked to stop, else its result (as the call would have answered) or its error. */
  private async settle(run: McpTaskRun, result?: CallToolResult, error?: unknown): Promise<void> {
    if (run.inputs.waiting) run.inputs.abandon(new Error('task ended'));
    let change: McpTaskChange;
    if (run.ending === 'failed') {
      change = SHUT_DOWN_CHANGE;
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
