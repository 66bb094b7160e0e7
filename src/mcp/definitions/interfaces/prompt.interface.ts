import type { McpDisplayOptions } from '../metadata-fields/display.interface.js';
import type { McpStandardSchema } from '../schema/standard-schema.js';
import type { GetPromptResult, PromptMessage } from '../../core/protocol/mcp-types.js';
import type { McpCompleter, McpCompleterRef, McpRequestContext } from './mcp-context.interface.js';
import type { McpServerMembership } from './server-membership.interface.js';

/**
 * One declared prompt argument; `complete` serves `completion/complete`.
 * @publicApi
 */
export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
  complete?: McpCompleterRef;
}

/**
 * A prompt argument as registered: its completer, if any, is a function.
 * @publicApi
 */
export interface McpPromptArgumentDefinition extends Omit<McpPromptArgument, 'complete'> {
  complete?: McpCompleter;
}

/**
 * What a prompt handler may return.
 * @publicApi
 */
export type McpPromptReturn = GetPromptResult | PromptMessage[];

/**
 * A prompt handler: the (string) arguments and the request context.
 * @publicApi
 */
export type McpPromptHandler = (args: Record<string, string>, ctx: McpRequestContext) => unknown;

/**
 * Options of `@McpPrompt()`. `title`, `icons` and `_meta` are listed as given.
 * @publicApi
 */
export interface McpPromptOptions extends McpDisplayOptions, McpServerMembership {
  /** Defaults to the method name. */
  name?: string;
  description: string;
  arguments?: McpPromptArgument[];
  /**
   * The arguments as a Standard Schema validator of an object (zod 4, valibot, ArkType), instead
   * of `arguments`: its properties are listed as the prompt's arguments (with their descriptions,
   * required unless optional), and `prompts/get` validates the arguments with it; the handler
   * receives its output.
   */
  argsSchema?: McpStandardSchema;
}

/**
 * A prompt registered at runtime.
 * @publicApi
 */
export interface McpPromptDefinition extends Omit<McpPromptOptions, 'arguments' | 'server'> {
  name: string;
  arguments?: McpPromptArgumentDefinition[];
  handler: McpPromptHandler;
}
