import type { Provider } from '@nestjs/common';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import { MCP_TOOL_TASKS } from '../../../engine/tools/tool-tasks.interface.js';
import { McpTasks } from './mcp-tasks.service.js';
import { MCP_CONSOLE_TASKS } from '../../../approvals/console/console-tasks.interface.js';
import { McpTaskRuns } from './task-runs.service.js';
import { McpTaskStatuses } from './task-statuses.service.js';
import { MemoryTaskStore } from './memory-task.store.js';
import { MCP_TASK_STORE } from './task-store.interface.js';
import { McpTasksHandler } from './tasks.handler.js';
import type { McpRevisionSettings } from './tasks-options.interface.js';
import { MCP_TASK_CLUSTER, type McpTaskCluster } from './task-cluster.interface.js';

/**
 * The tasks extension: the store (the option, then cluster mode's Redis, else memory), the
 * tasks, their methods.
 */
export const TASKS_PROVIDERS: Provider[] = [
  {
    provide: MCP_TASK_STORE,
    useFactory: (options: McpRevisionSettings, cluster: McpTaskCluster | null) =>
      options.tasks.store ?? cluster?.store() ?? new MemoryTaskStore(),
    inject: [MCP_OPTIONS, MCP_TASK_CLUSTER],
  },
  McpTaskStatuses,
  McpTaskRuns,
  McpTasks,
  { provide: MCP_TOOL_TASKS, useExisting: McpTasks },
  { provide: MCP_CONSOLE_TASKS, useExisting: McpTasks },
  McpTasksHandler,
];
