import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import { detailedTask } from './detailed-task.js';
import {
  MCP_TASK_CLUSTER,
  type McpTaskCluster,
  type McpTaskClusterMessage,
} from './task-cluster.interface.js';
import { MCP_TASK_STORE, type McpTaskStore } from './task-store.interface.js';
import type { McpTask, McpTaskChange, McpTaskStatus } from './task.interface.js';

/** What a runner hears from the instance a `tasks/cancel` or `tasks/update` reached. */
export type McpTaskSignal = Exclude<McpTaskClusterMessage, { kind: 'change' }>;

/** A task that changed: its id, and the `DetailedTask` a listen stream is sent, built on demand. */
export interface McpTaskNotice {
  readonly taskId: string;
  readonly status: McpTaskStatus;
  detailed(): Record<string, unknown>;
}

/** The statuses a running task's changes start from. */
export const RUNNING: readonly McpTaskStatus[] = ['working', 'input_required'];

/**
 * The tasks as the store keeps them, and who hears of their changes: every status change is
 * written here, then told to the listen streams (on every instance in cluster mode), and in
 * cluster mode what one instance tells another about a task it runs arrives here too.
 */
@Injectable()
export class McpTaskStatuses implements OnModuleInit, OnApplicationShutdown {
  private readonly changes = new Subject<McpTaskNotice>();
  private readonly signals = new Subject<McpTaskSignal>();

  constructor(
    @Inject(MCP_TASK_STORE) readonly store: McpTaskStore,
    @Inject(MCP_TASK_CLUSTER) readonly cluster: McpTaskCluster | null,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.cluster?.hear((message) => {
      if (message.kind === 'change') {
        const task = message.task as Record<string, unknown>;
        const status = task.status as McpTaskStatus;
        this.changes.next({ taskId: task.taskId as string, status, detailed: () => task });
      } else if (message.runner === this.cluster!.instance) this.signals.next(message);
    });
  }

  /* Last: the runs write their final statuses while the app is destroyed (McpTaskRuns). */
  async onApplicationShutdown(): Promise<void> {
    await this.store.close?.();
  }

  /** Every change of a task (what `notifications/tasks` carry). */
  get changed(): Observable<McpTaskNotice> {
    return this.changes;
  }

  /** Cancels and answers other instances send to the tasks this one runs. */
  get signalled(): Observable<McpTaskSignal> {
    return this.signals;
  }

  /** Tells the instance that runs a task what reached another. */
  signal(message: McpTaskSignal): void {
    this.cluster!.publish(message);
  }

  /** One change in the store (while the task's status is one of `from`), then told. */
  async change(
    taskId: string,
    change: McpTaskChange,
    from: readonly McpTaskStatus[] = RUNNING,
  ): Promise<McpTask | undefined> {
    const changed = await this.store.update(taskId, change, from);
    if (changed) this.told(changed);
    return changed;
  }

  private told(task: McpTask): void {
    if (this.cluster) this.cluster.publish({ kind: 'change', task: detailedTask(task) });
    // Built only if a listen stream follows the task: most changes nobody listens for.
    else {
      const { taskId, status } = task;
      this.changes.next({ taskId, status, detailed: () => detailedTask(task) });
    }
  }
}
