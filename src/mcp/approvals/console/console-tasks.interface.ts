/**
 * A running task as the console shows it beside the pending asks (docs/tasks.md). Its id is
 * cut short: a whole task id reads, answers and cancels the task for its owner, so a page
 * never carries one.
 */
export interface McpConsoleTaskView {
  /** The first characters of the task id: enough to tell tasks apart on the page. */
  readonly shortId: string;
  readonly tool: string;
  readonly status: string;
  readonly statusMessage?: string;
  /** The owner's subject ('anonymous' when it had none). */
  readonly owner: string;
  readonly createdAt: string;
}

/**
 * The running tasks, for the console: a port, provided by the tasks extension
 * (`revisions/2026-07-28/tasks/`), so the console never imports the layer above it.
 */
export interface McpConsoleTasks {
  /** Up to `limit` tasks still running (working or waiting for input), oldest first. */
  running(limit: number): Promise<readonly McpConsoleTaskView[]>;
}

/** DI token of the console's running tasks. */
export const MCP_CONSOLE_TASKS = Symbol('McpWarden:console-tasks');
