import { validAnswer } from '../../../core/multi-round-trip/input-round.js';
import type { McpTask, McpTaskInputRequest } from './task.interface.js';

/**
 * The answers of a `tasks/update` that the task waits on, judged against its stored
 * questions (the runner judges them again when they reach its tool), and the questions left.
 * Undefined when it takes none.
 */
export function takenAnswers(
  task: McpTask,
  responses: Readonly<Record<string, unknown>>,
):
  | { answers: Record<string, unknown>; remaining?: Record<string, McpTaskInputRequest> }
  | undefined {
  const waiting = task.inputRequests ?? {};
  const answers: Record<string, unknown> = {};
  const remaining: Record<string, McpTaskInputRequest> = {};
  for (const [key, request] of Object.entries(waiting)) {
    const answer = validAnswer(responses[key], request.method);
    if (answer === undefined) remaining[key] = request;
    else answers[key] = answer;
  }
  if (Object.keys(answers).length === 0) return undefined;
  return Object.keys(remaining).length > 0 ? { answers, remaining } : { answers };
}
