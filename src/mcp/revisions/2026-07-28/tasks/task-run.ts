import type { McpTaskRequest } from './task-request.js';
import { McpTaskInputs } from './task-inputs.js';

/**
 * One task running on this instance: the request its tool runs with, the questions it waits
 * on, and the order of its status changes (each waits for the one before, so the store never
 * sees them out of order).
 */
export class McpTaskRun {
  readonly inputs = new McpTaskInputs();
  private changes: Promise<unknown> = Promise.resolve();
  private cancelRequested = false;

  constructor(
    readonly taskId: string,
    readonly request: McpTaskRequest,
  ) {}

  /** Whether `tasks/cancel` (or a shutdown) asked it to stop. */
  get cancelling(): boolean {
    return this.cancelRequested;
  }

  /** Runs `change` after every change queued before it; resolves with its result. */
  queue<T>(change: () => Promise<T>): Promise<T> {
    const next = this.changes.then(change, change);
    this.changes = next.catch(() => undefined);
    return next;
  }

  /** Stops the tool: its signal aborts and the questions it waits on end. */
  cancel(reason: string): void {
    this.cancelRequested = true;
    this.request.cancel(reason);
    this.inputs.abandon(new Error(reason));
  }
}
