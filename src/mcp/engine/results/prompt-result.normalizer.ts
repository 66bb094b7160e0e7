import type { GetPromptResult, PromptMessage } from '../../core/protocol/mcp-types.js';

/** Turns a prompt handler's messages array or full result into a `GetPromptResult`. */
export function normalizePromptResult(value: unknown, description?: string): GetPromptResult {
  if (Array.isArray(value)) {
    const result: GetPromptResult = { messages: value as PromptMessage[] };
    if (description !== undefined) result.description = description;
    return result;
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as GetPromptResult).messages)
  ) {
    return value as GetPromptResult;
  }
  throw new TypeError('prompt handler returned neither messages nor a GetPromptResult');
}
