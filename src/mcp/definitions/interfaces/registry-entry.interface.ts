import type { Prompt, Resource, ResourceTemplate, Tool } from '../../core/protocol/mcp-types.js';
import type { InputValidator } from '../schema/input-validator.js';
import type { OutputCheck } from '../schema/json-schema.compiler.js';
import type { StandardValidation } from '../schema/standard-schema.js';
import type { UriTemplate } from '../uri-template.js';
import type { McpCompleter, McpRequestContext, McpToolContext } from './mcp-context.interface.js';
import type { McpPromptArgumentDefinition } from './prompt.interface.js';
import type { McpTaskSupport } from './tool.interface.js';

/** A registered tool: its listing, its contracts and how to run it. */
export interface McpToolEntry {
  readonly tool: Tool;
  readonly sensitive: boolean;
  /** Scopes the caller's principal needs (empty: none). */
  readonly scopes: readonly string[];
  /** Whether a call may, or must, run as a task (docs/tasks.md). */
  readonly task: McpTaskSupport;
  readonly input: InputValidator;
  /** The check a result's `structuredContent` must pass (JSON Schema or Standard Schema). */
  readonly output?: OutputCheck;
  readonly completions: Readonly<Record<string, McpCompleter>>;
  /** Runs the handler; returns its value, or a promise of it for an async handler. */
  readonly invoke: (args: unknown, ctx: McpToolContext) => unknown;
  /** Where it was defined, for messages (`Class.method` or `registerTool`). */
  readonly source: string;
}

type ResourceInvoke = (
  uri: string,
  variables: Record<string, string>,
  ctx: McpRequestContext,
) => Promise<unknown>;

/** A registered static resource. */
export interface McpResourceEntry {
  readonly resource: Resource;
  readonly invoke: ResourceInvoke;
  readonly source: string;
}

/** A registered resource template. */
export interface McpResourceTemplateEntry {
  readonly template: ResourceTemplate;
  readonly matcher: UriTemplate;
  readonly completions: Readonly<Record<string, McpCompleter>>;
  readonly invoke: ResourceInvoke;
  readonly source: string;
}

/** A registered prompt. */
export interface McpPromptEntry {
  readonly prompt: Prompt;
  readonly arguments: readonly McpPromptArgumentDefinition[];
  /** With `argsSchema`: validates the arguments, and gives what the handler receives. */
  readonly validate?: (
    args: Record<string, string>,
  ) => StandardValidation | Promise<StandardValidation>;
  readonly invoke: (args: Record<string, string>, ctx: McpRequestContext) => Promise<unknown>;
  readonly source: string;
}
