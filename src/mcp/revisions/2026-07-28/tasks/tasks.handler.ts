import { Injectable } from '@nestjs/common';
import { CancelTaskRequestSchema, GetTaskRequestSchema } from '@modelcontextprotocol/core';
import { record, string, unknown, type infer as Infer } from 'zod';
import { ReadSeam } from '../../../authorization/seam.decorators.js';
import { McpMethod } from '../../../engine/dispatch/mcp-method.decorator.js';
import type { McpRequest } from '../../../engine/dispatch/mcp-request.interface.js';
import { McpTasks } from './mcp-tasks.service.js';
import { declaresTasks, tasksExtensionRequired } from './tasks-extension.js';

/* The official package's `tasks/get` and `tasks/cancel` params ({ taskId }); `tasks/update` adds its answers. */
const GetParams = GetTaskRequestSchema.shape.params;
const CancelParams = CancelTaskRequestSchema.shape.params;
/* Answers are checked one by one against the question each key waits on; the rest is ignored. */
const UpdateParams = GetParams.extend({ inputResponses: record(string(), unknown()) });

type TaskParams = Infer<typeof GetParams>;
type UpdateTaskParams = Infer<typeof UpdateParams>;

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (SEP-2663), modern era only, behind the read
 * seam (it sees `{ taskId }`). A request that does not declare the extension is -32021 before
 * any task is looked up; a task that does not exist, expired or is another principal's is the
 * same -32602. `tasks/result` and `tasks/list` do not exist (-32601).
 */
@Injectable()
export class McpTasksHandler {
  constructor(private readonly tasks: McpTasks) {}

  @McpMethod('tasks/get', GetParams)
  @ReadSeam()
  get(request: McpRequest<TaskParams>): Promise<object> {
    declared(request);
    return this.tasks.get(request.params.taskId, request);
  }

  @McpMethod('tasks/update', UpdateParams)
  @ReadSeam()
  async update(request: McpRequest<UpdateTaskParams>): Promise<object> {
    declared(request);
    await this.tasks.update(request.params.taskId, request.params.inputResponses, request);
    return {};
  }

  @McpMethod('tasks/cancel', CancelParams)
  @ReadSeam()
  async cancel(request: McpRequest<TaskParams>): Promise<object> {
    declared(request);
    await this.tasks.cancel(request.params.taskId, request);
    return {};
  }
}

function declared(request: McpRequest): void {
  if (!declaresTasks(request)) throw tasksExtensionRequired();
}
