import type { McpTask, McpTaskChange, McpTaskStatus } from './task.interface.js';

/**
 * The bounds a store enforces when it creates a task.
 * @publicApi
 */
export interface McpTaskBounds {
  /** Tasks kept at once, over all callers. */
  readonly maxTasks: number;
  /** Tasks one quota key may hold at once. */
  readonly maxTasksPerPrincipal: number;
}

/**
 * Where tasks are kept (docs/tasks.md): in memory by default, in Redis in cluster mode, or
 * any store an application provides through `tasks.store`. Each method is atomic: a task's
 * status only moves forward, and a final status is never left.
 * @publicApi
 */
export interface McpTaskStore {
  /**
   * Keeps `task` until its `expiresAt`; false when a bound is reached. Resolves only once
   * `get` finds it (a created task is durable before its creator hears of it).
   */
  create(task: McpTask, bounds: McpTaskBounds): Promise<boolean>;
  /** The task, or undefined once it expired or was never created. */
  get(taskId: string): Promise<McpTask | undefined>;
  /**
   * Applies `change` (with a new `lastUpdatedAt`) while the task's status is one of `from`;
   * resolves with the task as changed, or undefined when it is gone or in another status.
   */
  update(
    taskId: string,
    change: McpTaskChange,
    from: readonly McpTaskStatus[],
  ): Promise<McpTask | undefined>;
  /**
   * Up to `limit` tasks still running (working or waiting for input), oldest first: what the
   * operator console shows. Optional: without it the console shows no tasks.
   */
  running?(limit: number): Promise<McpTask[]>;
  /** Releases what the store holds (timers, connections). */
  close?(): Promise<void>;
}

/** DI token of the task store. */
export const MCP_TASK_STORE = Symbol('McpWarden:task-store');
