import { CallToolRequestParamsSchema, RequestMetaSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';
import type { McpParamsSchema } from '../dispatch/mcp-method.decorator.js';
import { isJsonObject } from '../../core/protocol/jsonrpc.js';

/** `tools/call` params, as the official schema gives them. */
export type CallToolParams = z.infer<typeof CallToolRequestParamsSchema>;

/*
 * The official schema answers every shape but the commonest: `{ name, arguments }` of plain
 * JSON, with a `_meta` of plain values in the 2026-07-28 era (its envelope) or with a progress
 * token. For those the result is built here as the schema builds it (the fields in its order,
 * `arguments` and `_meta` copied key by key), without its general walk, which cost a few percent
 * of an HTTP call (docs/performance.md, "tools/call params"). Anything else, or anything this
 * cannot be sure of (a `task`, a `__proto__` key, an object that is not plain, a `_meta` key the
 * schema checks other than `progressToken`), goes to the schema; `call-tool-params.spec.ts`
 * holds the two to the same answers.
 */

/** `_meta` keys the schema checks beyond `progressToken`: their `_meta` goes to the schema. */
const CHECKED_META_KEYS = Object.keys(RequestMetaSchema.shape).filter(
  (key) => key !== 'progressToken',
);

/* A plain JSON object, whose own keys (for...in) are all a copy needs. */
function isPlain(value: unknown): value is Record<string, unknown> {
  return (
    isJsonObject(value) &&
    Object.getPrototypeOf(value) === Object.prototype &&
    // The schema leaves a `__proto__` key out of its copies; a spread would set the prototype.
    !Object.hasOwn(value, '__proto__')
  );
}

/* `_meta` as the schema gives it (`progressToken` first), or undefined to leave it to the schema. */
function plainMeta(meta: unknown): Record<string, unknown> | undefined {
  if (!isPlain(meta) || CHECKED_META_KEYS.some((key) => key in meta)) return undefined;
  if (!('progressToken' in meta)) return { ...meta };
  const { progressToken, ...rest } = meta;
  if (typeof progressToken !== 'string' && !Number.isSafeInteger(progressToken)) return undefined;
  return { progressToken, ...rest };
}

function plainCall(params: unknown): CallToolParams | undefined {
  if (!isJsonObject(params)) return undefined;
  // A JSON object's keys are its own: anything but these goes to the schema.
  for (const key in params) {
    if (key !== 'name' && key !== 'arguments' && key !== '_meta') return undefined;
  }
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== 'string') return undefined;
  if (!('_meta' in params)) return plainArguments({ name }, params, args);
  const copied = plainMeta(meta);
  // The schema's order: `_meta` first.
  return copied && plainArguments({ _meta: copied, name } as CallToolParams, params, args);
}

/* Adds the arguments' copy to `call`, or undefined to leave the whole to the schema. */
function plainArguments(
  call: CallToolParams,
  params: object,
  args: unknown,
): CallToolParams | undefined {
  if (!('arguments' in params)) return call;
  if (!isPlain(args)) return undefined;
  call.arguments = { ...args };
  return call;
}

/** `tools/call`'s params check: the official schema, with its commonest shapes answered first. */
export const callToolParams: McpParamsSchema = {
  safeParse(params: unknown) {
    const plain = plainCall(params);
    return plain ? { success: true, data: plain } : CallToolRequestParamsSchema.safeParse(params);
  },
};
