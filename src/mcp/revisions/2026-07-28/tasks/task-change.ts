import type { McpTask, McpTaskChange } from './task.interface.js';

/**
 * `task` with `change` applied, as every store applies it: `statusMessage`, `result`, `error`
 * and `inputRequests` are replaced as given (absent clears them), and `lastUpdatedAt` is now.
 */
export function changedTask(task: McpTask, change: McpTaskChange): McpTask {
  const {
    statusMessage: _message,
    result: _result,
    error: _error,
    inputRequests: _inputs,
    ...kept
  } = task;
  const changed: Record<string, unknown> = { ...kept, lastUpdatedAt: new Date().toISOString() };
  for (const [key, value] of Object.entries(change)) if (value !== undefined) changed[key] = value;
  return changed as unknown as McpTask;
}
