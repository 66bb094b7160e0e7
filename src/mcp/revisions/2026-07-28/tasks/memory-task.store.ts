import type { McpTaskBounds, McpTaskStore } from './task-store.interface.js';
import {
  FINAL_STATUSES,
  type McpTask,
  type McpTaskChange,
  type McpTaskStatus,
} from './task.interface.js';
import { changedTask } from './task-change.js';

/** How often expired tasks are swept when nothing else touches the store. */
const SWEEP_EVERY_MS = 30_000;

/**
 * The default task store: one process, in memory. Tasks are kept in the order they expire
 * (every task of one server has the same TTL), so a sweep stops at the first live one.
 * @publicApi
 */
export class MemoryTaskStore implements McpTaskStore {
  private readonly tasks = new Map<string, McpTask>();
  private readonly perQuota = new Map<string, number>();
  private readonly timer = setInterval(() => this.sweep(), SWEEP_EVERY_MS).unref();

  create(task: McpTask, bounds: McpTaskBounds): Promise<boolean> {
    this.sweep();
    const held = this.perQuota.get(task.quotaKey) ?? 0;
    if (this.tasks.size >= bounds.maxTasks || held >= bounds.maxTasksPerPrincipal) {
      return Promise.resolve(false);
    }
    this.tasks.set(task.taskId, task);
    this.perQuota.set(task.quotaKey, held + 1);
    return Promise.resolve(true);
  }

  get(taskId: string): Promise<McpTask | undefined> {
    return Promise.resolve(this.live(taskId));
  }

  update(
    taskId: string,
    change: McpTaskChange,
    from: readonly McpTaskStatus[],
  ): Promise<McpTask | undefined> {
    const task = this.live(taskId);
    if (!task || !from.includes(task.status)) return Promise.resolve(undefined);
    const changed = changedTask(task, change);
    this.tasks.set(taskId, changed);
    return Promise.resolve(changed);
  }

  running(limit: number): Promise<McpTask[]> {
    this.sweep();
    const running: McpTask[] = [];
    for (const task of this.tasks.values()) {
      if (running.length >= limit) break;
      if (!FINAL_STATUSES.has(task.status)) running.push(task);
    }
    return Promise.resolve(running);
  }

  close(): Promise<void> {
    clearInterval(this.timer);
    return Promise.resolve();
  }

  private live(taskId: string): McpTask | undefined {
    const task = this.tasks.get(taskId);
    if (task && task.expiresAt <= Date.now()) {
      this.forget(task);
      return undefined;
    }
    return task;
  }

  private sweep(): void {
    const now = Date.now();
    for (const task of this.tasks.values()) {
      if (task.expiresAt > now) return;
      this.forget(task);
    }
  }

  private forget(task: McpTask): void {
    if (!this.tasks.delete(task.taskId)) return;
    const left = (this.perQuota.get(task.quotaKey) ?? 1) - 1;
    if (left > 0) this.perQuota.set(task.quotaKey, left);
    else this.perQuota.delete(task.quotaKey);
  }
}
