import type { Provider } from '@nestjs/common';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import { MCP_TOOL_TASKS } from '../../../engine/tools/tool-tasks.interface.js';
import { McpTasks } from './mcp-tasks.service.js';
import { MemoryTaskStore } from './memory-task.store.js';
import { MCP_TASK_STORE } from './task-store.interface.js';
import { McpTasksHandler } from './tasks.handler.js';
import type { McpRevisionSettings } from './tasks-options.interface.js';

/** The tasks extension: the store (the option, else memory), the tasks, their methods. */
export const TASKS_PROVIDERS: Provider[] = [
  {
    provide: MCP_TASK_STORE,
    useFactory: (options: McpRevisionSettings) => options.tasks.store ?? new MemoryTaskStore(),
    inject: [MCP_OPTIONS],
  },
  McpTasks,
  { provide: MCP_TOOL_TASKS, useExisting: McpTasks },
  McpTasksHandler,
];
