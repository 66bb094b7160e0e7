import type { Type } from '@nestjs/common';
import type {
  CallToolResult,
  JsonSchemaObject,
  ToolAnnotations,
} from '../../core/protocol/mcp-types.js';
import type { McpDisplayOptions } from '../metadata-fields/display.interface.js';
import type { McpStandardSchema } from '../schema/standard-schema.js';
import type { McpCompleter, McpCompleterRef, McpToolContext } from './mcp-context.interface.js';
import type { McpServerMembership } from './server-membership.interface.js';

/**
 * A tool's input: a class-validator DTO (its JSON Schema is derived; arguments
 * are validated and transformed into an instance), a raw JSON Schema object
 * (listed verbatim and validated with a JSON Schema validator), or a Standard
 * Schema validator such as zod 4, valibot or ArkType (listed as the JSON Schema
 * it describes itself as; arguments are validated, and transformed, by it).
 * @publicApi
 */
export type McpToolInput = Type<object> | JsonSchemaObject | McpStandardSchema;

/**
 * A tool's output schema: a JSON Schema object (type object) or a Standard Schema validator
 * that describes an object. A result's `structuredContent` is checked against it before it is
 * sent.
 * @publicApi
 */
export type McpToolOutput = JsonSchemaObject | McpStandardSchema;

/**
 * What a tool handler may return; docs/providers.md ("What a handler returns") says how each is sent.
 * @publicApi
 */
export type McpToolReturn = string | unknown[] | CallToolResult | Record<string, unknown> | void;

/**
 * Options of `@McpTool()`. `title`, `icons` and `_meta` are listed as given.
 * @publicApi
 */
export interface McpToolOptions extends McpDisplayOptions, McpServerMembership {
  /** Tool name; defaults to the method name. 1–128 of `[A-Za-z0-9_.-]`. */
  name?: string;
  /** Required: what the tool does, for the model. */
  description: string;
  /** The arguments' contract: a DTO class, a JSON Schema (type object) or a Standard Schema. */
  inputSchema?: McpToolInput;
  /** What the tool's `structuredContent` must match: a JSON Schema or a Standard Schema. */
  outputSchema?: McpToolOutput;
  /** @deprecated Use `inputSchema`, as `registerTool()` does; kept for one release. */
  input?: McpToolInput;
  /** @deprecated Use `outputSchema`, as `registerTool()` does; kept for one release. */
  output?: McpToolOutput;
  annotations?: ToolAnnotations;
  /** Marks the tool sensitive even without `destructiveHint`. */
  sensitive?: boolean;
  /**
   * Scopes the caller's principal needs for this tool: without them it is not
   * listed, and a call is refused (over HTTP with a 403 step-up challenge).
   */
  scopes?: string[];
  /** Completers for arguments, served by `completion/complete` with a `ref/tool` reference. */
  completions?: Record<string, McpCompleterRef>;
  /**
   * Whether a call may run as a durable task (docs/tasks.md): `optional` when the request
   * declares the tasks extension (modern era only), `required` refuses a request that does not
   * (-32021). Default: never a task.
   */
  task?: McpTaskSupport;
}

/**
 * How a tool runs as a task: `never` (the default), `optional` or `required` (docs/tasks.md).
 * @publicApi
 */
export type McpTaskSupport = 'never' | 'optional' | 'required';

/**
 * `@McpTool()` options as stored: the deprecated aliases resolved to their new names.
 * @publicApi
 */
export type McpToolMetadata = Omit<McpToolOptions, 'input' | 'output'>;

/**
 * A tool handler: validated arguments in, a result out.
 * @publicApi
 */
export type McpToolHandler = (args: never, ctx: McpToolContext) => unknown;

/**
 * A tool registered at runtime through `McpRegistry.registerTool()`.
 * @publicApi
 */
export interface McpToolDefinition extends Omit<
  McpToolOptions,
  'name' | 'input' | 'output' | 'inputSchema' | 'completions' | 'server'
> {
  name: string;
  completions?: Record<string, McpCompleter>;
  inputSchema: McpToolInput;
  /** Called with the validated arguments and the call's context; returns the result. */
  handler: (args: Record<string, unknown>, ctx: McpToolContext) => unknown;
}
