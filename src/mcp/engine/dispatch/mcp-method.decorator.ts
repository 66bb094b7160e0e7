import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';
import { MCP_METHOD_METADATA } from '../../core/mcp.constants.js';

/**
 * What the dispatcher asks of a method's params schema: a zod schema of the official MCP package,
 * or one that answers as such a schema does.
 */
export interface McpParamsSchema {
  safeParse(params: unknown): z.ZodSafeParseResult<unknown>;
}

/** What `@McpMethod()` records: the JSON-RPC method and the schema of its params. */
export interface McpMethodMetadata {
  method: string;
  params?: McpParamsSchema;
}

/**
 * Marks a server provider method as the handler of a JSON-RPC request method.
 * The dispatcher validates `params` against `params` (a schema from the
 * official MCP package) before guards run, so guards see well-formed input.
 *
 * @example
 * @McpMethod('prompts/get', GetPromptRequestParamsSchema)
 * @ReadSeam()
 * get(request: McpRequest<GetParams>) { ... }
 */
export const McpMethod = (method: string, params?: McpParamsSchema): MethodDecorator =>
  SetMetadata(MCP_METHOD_METADATA, { method, params } satisfies McpMethodMetadata);
