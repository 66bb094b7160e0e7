import type { McpTaskRequest } from './task-request.js';
import { McpTaskInputs } from './task-inputs.js';

/**
 * One task running on this instance: the request its tool runs with, the questions it waits
 * on, and the order of its status changes (each waits for the one before, so the store never
 * sees them out of order).
 */
export class McpTaskRun {
  readonly inputs = new McpTaskInputs();
  /** The latest progress message whose write waits its turn (see `McpTaskRuns.progress`). */
  progressMessage?: string;
  private changes: Promise<unknown> = Promise.resolve();
  private end?: 'cancelled' | 'failed';
  private markEnded!: () => void;
  /** Resolves once the run's final status was written. */
  readonly settled = new Promise<void>((resolve) => (this.markEnded = resolve));
  /** When the run began (performance.now()): an outcome written for it says how long it ran. */
  readonly startedAt = performance.now();

  constructor(
    readonly taskId: string,
    readonly request: McpTaskRequest,
  ) {}

  /** Whether `tasks/cancel` (or a shutdown) asked it to stop. */
  get cancelling(): boolean {
    return this.end !== undefined;
  }

  /** How it ends once the tool settles, when it was asked to stop. */
  get ending(): 'cancelled' | 'failed' | undefined {
    return this.end;
  }

  /** Its final status was written. */
  ended(): void {
    this.markEnded();
  }

  /** Runs `change` after every change queued before it; resolves with its result. */
  queue<T>(change: () => Promise<T>): Promise<T> {
    const next = this.changes.then(change, change);
    this.changes = next.catch(() => undefined);
    return next;
  }

  /**
   * Stops the tool: its signal aborts and the questions it waits on end. It ends `cancelled`,
   * or `failed` when the server stops it (a shutdown).
   */
  cancel(reason: string, end: 'cancelled' | 'failed' = 'cancelled'): void {
    this.end ??= end;
    this.request.cancel(reason);
    if (this.inputs.waiting) this.inputs.abandon(new Error(reason));
  }
}
