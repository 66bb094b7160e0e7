import { CallToolRequestParamsSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';
import type { McpParamsSchema } from '../dispatch/mcp-method.decorator.js';

/** `tools/call` params, as the official schema gives them. */
export type CallToolParams = z.infer<typeof CallToolRequestParamsSchema>;

/*
 * The official schema answers every shape but one: `{ name, arguments }` of plain JSON, which
 * nearly every call is. For that one the result is built here, as the schema builds it (the two
 * fields in its order, `arguments` copied key by key), without its general walk, which cost a
 * few percent of an HTTP call (docs/performance.md, "tools/call params"). Anything else, or
 * anything this cannot be sure of (a `__proto__` key, an object that is not plain), goes to the
 * schema; `call-tool-params.spec.ts` holds the two to the same answers.
 */
function plainCall(params: unknown): CallToolParams | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  // A JSON object's keys are its own: anything but these two goes to the schema.
  for (const key in params) if (key !== 'name' && key !== 'arguments') return undefined;
  const { name, arguments: args } = params as Record<string, unknown>;
  if (typeof name !== 'string') return undefined;
  if (args === undefined) return 'arguments' in params ? undefined : { name };
  if (
    typeof args !== 'object' ||
    args === null ||
    Object.getPrototypeOf(args) !== Object.prototype
  ) {
    return undefined;
  }
  // The schema leaves a `__proto__` key out of its copy; a spread would set the prototype.
  if (Object.hasOwn(args, '__proto__')) return undefined;
  return { name, arguments: { ...(args as Record<string, unknown>) } };
}

/** `tools/call`'s params check: the official schema, with its commonest shape answered first. */
export const callToolParams: McpParamsSchema = {
  safeParse(params: unknown) {
    const plain = plainCall(params);
    return plain ? { success: true, data: plain } : CallToolRequestParamsSchema.safeParse(params);
  },
};
