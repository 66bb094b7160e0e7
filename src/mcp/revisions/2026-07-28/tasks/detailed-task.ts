import type { McpTask } from './task.interface.js';

/**
 * A task's wire fields (SEP-2663 `Task`): what `CreateTaskResult` carries. Never the owner,
 * the quota key or the runner: those are the server's.
 */
export function taskFields(task: McpTask): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/**
 * `DetailedTask`: the task with what its status owes the client (`tasks/get` and
 * `notifications/tasks`): the questions of `input_required`, the result of `completed`,
 * the error of `failed`.
 */
export function detailedTask(task: McpTask): Record<string, unknown> {
  const wire = taskFields(task);
  if (task.status === 'input_required') wire.inputRequests = task.inputRequests ?? {};
  if (task.status === 'completed') wire.result = task.result ?? { content: [] };
  if (task.status === 'failed') {
    wire.error = task.error ?? { code: -32603, message: 'Internal error' };
  }
  return wire;
}
