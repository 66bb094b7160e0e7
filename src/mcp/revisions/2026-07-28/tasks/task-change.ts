import type { McpTask, McpTaskChange } from './task.interface.js';

/**
 * `task` with `change` applied, as every store applies it: `statusMessage`, `result`, `error`
 * and `inputRequests` are replaced as given (absent clears them), and `lastUpdatedAt` is now.
 */
export function changedTask(task: McpTask, change: McpTaskChange): McpTask {
  // Field by field (not rest and spread): every change of every task goes through here.
  const changed: { -readonly [K in keyof McpTask]: McpTask[K] } = {
    taskId: task.taskId,
    owner: task.owner,
    quotaKey: task.quotaKey,
    tool: task.tool,
    status: change.status,
    createdAt: task.createdAt,
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
    expiresAt: task.expiresAt,
  };
  if (task.runner !== undefined) changed.runner = task.runner;
  if (change.statusMessage !== undefined) changed.statusMessage = change.statusMessage;
  if (change.result !== undefined) changed.result = change.result;
  if (change.error !== undefined) changed.error = change.error;
  if (change.inputRequests !== undefined) changed.inputRequests = change.inputRequests;
  return changed;
}
