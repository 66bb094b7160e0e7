import type { McpApprovalsSettings } from '../../../approvals/approvals-settings.interface.js';
import type { McpTaskStore } from './task-store.interface.js';

/**
 * Options of the tasks extension (docs/tasks.md).
 * @publicApi
 */
export interface McpTasksOptions {
  /** How long a task is kept, from its creation; it cannot run longer. Default 10 min. */
  ttlMs?: number;
  /** How often a client is told to poll `tasks/get`. Default 1 000 ms. */
  pollIntervalMs?: number;
  /**
   * How long an `optional` task tool may take and still answer its call at once, before its
   * call becomes a task. Default 0: it becomes a task as soon as its handler waits.
   */
  immediateMs?: number;
  /** Where tasks are kept. Default: in memory; cluster mode keeps them in its Redis. */
  store?: McpTaskStore;
}

/** The tasks options with every default applied. */
export interface ResolvedTasksOptions {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly immediateMs: number;
  readonly store?: McpTaskStore;
}

/** The resolved options as the modern revision and the layers above it read them. */
export interface McpRevisionSettings extends McpApprovalsSettings {
  readonly tasks: ResolvedTasksOptions;
}
