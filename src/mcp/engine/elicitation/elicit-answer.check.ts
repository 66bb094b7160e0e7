import { ElicitResultSchema } from '@modelcontextprotocol/core';
import type { ElicitResult } from '../../core/protocol/mcp-types.js';
import {
  compileJsonSchema,
  type JsonSchemaCheck,
} from '../../definitions/schema/json-schema.compiler.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';

/**
 * Compiles a form elicitation's `requestedSchema`, once per elicitation, so
 * the answer is checked against exactly what the client was sent. Throws a
 * `TypeError` for a schema that is not valid JSON Schema (a server bug).
 */
export function compileRequestedSchema(requestedSchema: Record<string, unknown>): JsonSchemaCheck {
  try {
    return compileJsonSchema(requestedSchema, 'content');
  } catch (error) {
    throw new TypeError(`elicit(): requestedSchema ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The client's answer to `elicitation/create`, checked. A result that is not
 * an `ElicitResult`, or an `accept` whose content fails `check` (spec: servers
 * SHOULD validate the data against the requested schema), becomes a tool
 * error: a handler never takes such content for the user's answer.
 */
export function checkedElicitAnswer(answer: unknown, check?: JsonSchemaCheck): ElicitResult {
  const parsed = ElicitResultSchema.safeParse(answer);
  if (!parsed.success) {
    throw new McpToolError('The client answered the elicitation with a malformed result');
  }
  if (check && parsed.data.action === 'accept') {
    const problem = check(parsed.data.content ?? {});
    if (problem !== undefined) {
      throw new McpToolError(`The client's answer does not match the requested schema: ${problem}`);
    }
  }
  return answer as ElicitResult;
}
