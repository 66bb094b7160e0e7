/**
 * A `tools/call` answered with a task (docs/tasks.md): the task's wire fields, which the
 * modern revision sends as a `CreateTaskResult` (`resultType: "task"`). A class, not a shape,
 * so nothing a tool returns can pass for one.
 */
export class McpCreatedTask {
  constructor(readonly task: Readonly<Record<string, unknown>>) {}
}
