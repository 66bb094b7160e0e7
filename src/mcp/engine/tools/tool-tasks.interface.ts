import type { CallToolResult } from '../../core/protocol/mcp-types.js';
import type { McpToolEntry } from '../../definitions/interfaces/registry-entry.interface.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import type { McpCreatedTask } from './created-task.js';

/** How a `tools/call` ended for its caller: a result, or a task that goes on (docs/tasks.md). */
export type McpToolOutcome = CallToolResult | McpCreatedTask;

/** How one call runs: now, as a task, or not at all (a task-only tool in an era without tasks). */
export type McpCallPlan = 'now' | 'task' | 'task-only';

/**
 * Where the tools handler hands a call that may run as a durable task: a port, provided by
 * the modern revision's `tasks/` (`McpTasks`), so the engine never imports the layer that
 * owns the tasks extension (docs/architecture.md, "Ports").
 */
export interface McpToolTasks {
  /**
   * Whether `request` to `tool` runs as a task. Throws -32021 for a task-only tool in a
   * modern request that does not declare the extension.
   */
  plan(request: McpRequest, tool: McpToolEntry): McpCallPlan;
  /**
   * Starts `run` for a call `plan` made a task. It answers the run's own result when the run
   * asked the caller a question before the task existed (a multi round-trip round) or ended
   * within `tasks.immediateMs`; else the task, once a `tasks/get` finds it.
   */
  start(
    request: McpRequest,
    tool: McpToolEntry,
    run: (request: McpRequest) => Promise<CallToolResult>,
    options?: {
      /** False: a task at once, whatever `tasks.immediateMs` says (an operator's approval waits inside it). */
      immediate?: boolean;
    },
  ): Promise<McpToolOutcome>;
}

/** DI token of the tool tasks. */
export const MCP_TOOL_TASKS = Symbol('McpWarden:tool-tasks');
