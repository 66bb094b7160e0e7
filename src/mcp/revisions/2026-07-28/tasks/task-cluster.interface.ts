import type { McpTaskStore } from './task-store.interface.js';

/** What instances tell each other about tasks (docs/tasks.md, "Cluster mode"). */
export type McpTaskClusterMessage =
  /** `tasks/cancel` reached another instance than the one that runs the task. */
  | { readonly kind: 'cancel'; readonly taskId: string; readonly runner: string }
  /** `tasks/update` did: the answers it took in the store, for the runner's waiting tool. */
  | {
      readonly kind: 'input';
      readonly taskId: string;
      readonly runner: string;
      readonly responses: Readonly<Record<string, unknown>>;
    }
  /** A task changed (as `DetailedTask`): listen streams on every instance may follow it. */
  | { readonly kind: 'change'; readonly task: Readonly<Record<string, unknown>> };

/**
 * Cluster mode's part of the tasks (provided by `cluster/`, null without `cluster`): the
 * shared store, this instance's name (a task's runner), whether another instance still
 * beats, and a channel every instance hears.
 */
export interface McpTaskCluster {
  readonly instance: string;
  store(): McpTaskStore;
  isAlive(instance: string): Promise<boolean>;
  /** Calls `onDead` once `instance` is found dead (checked every heartbeat); returns the unwatch. */
  watch(instance: string, onDead: () => void): () => void;
  publish(message: McpTaskClusterMessage): void;
  /**
   * Work to finish before the cluster's connections close at shutdown (the runs' final
   * statuses): the bus waits for it, whatever order the app's hooks run in.
   */
  beforeClose(drain: () => Promise<void>): void;
  /** Hears what any instance publishes, this one's own messages included. */
  hear(handler: (message: McpTaskClusterMessage) => void): Promise<void>;
}

/** DI token of the task cluster: null without `cluster`. */
export const MCP_TASK_CLUSTER = 'McpWarden:taskCluster';
