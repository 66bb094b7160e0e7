import type {
  McpDisplayOptions,
  McpResourceAnnotations,
} from '../metadata-fields/display.interface.js';
import type { ReadResourceResult } from '../../core/protocol/mcp-types.js';
import type { McpCompleter, McpCompleterRef, McpRequestContext } from './mcp-context.interface.js';
import type { McpServerMembership } from './server-membership.interface.js';

/**
 * What a resource handler may return: text, bytes (sent as a blob) or a full result.
 * @publicApi
 */
export type McpResourceReturn = string | Uint8Array | ReadResourceResult;

/**
 * A resource handler: the requested URI, the template's variables (empty for a
 * static resource) and the request context.
 * @publicApi
 */
export type McpResourceHandler = (
  uri: string,
  variables: Record<string, string>,
  ctx: McpRequestContext,
) => unknown;

/**
 * Options of `@McpResource()`. `title`, `icons`, `_meta`, `annotations` and
 * `size` are listed as given.
 * @publicApi
 */
export interface McpResourceOptions extends McpDisplayOptions, McpServerMembership {
  uri: string;
  /** Defaults to the method name. */
  name?: string;
  description?: string;
  mimeType?: string;
  /** Intended audience, priority (0..1) and last modification (ISO 8601). */
  annotations?: McpResourceAnnotations;
  /** Size of the raw content in bytes, when known (lets a client budget its context). */
  size?: number;
}

/**
 * Options of `@McpResourceTemplate()`. `title`, `icons`, `_meta` and
 * `annotations` are listed as given (a template has no `size` in the schema).
 * @publicApi
 */
export interface McpResourceTemplateOptions extends McpDisplayOptions, McpServerMembership {
  /** An RFC 6570 level-1/2 template such as `notes://{id}` or `files://{+path}`. */
  uriTemplate: string;
  name?: string;
  description?: string;
  mimeType?: string;
  /** Intended audience, priority (0..1) and last modification of what it serves. */
  annotations?: McpResourceAnnotations;
  /** Completers for the template's variables, served by `completion/complete`. */
  completions?: Record<string, McpCompleterRef>;
  /** @deprecated Use `completions` (the name tools use); kept for one release. */
  complete?: Record<string, McpCompleterRef>;
}

/**
 * `@McpResourceTemplate()` options as stored: the deprecated alias resolved.
 * @publicApi
 */
export type McpResourceTemplateMetadata = Omit<McpResourceTemplateOptions, 'complete'>;

/**
 * A static resource registered at runtime.
 * @publicApi
 */
export interface McpResourceDefinition extends Omit<McpResourceOptions, 'server'> {
  name: string;
  handler: McpResourceHandler;
}

/**
 * A resource template registered at runtime.
 * @publicApi
 */
export interface McpResourceTemplateDefinition extends Omit<
  McpResourceTemplateOptions,
  'complete' | 'completions' | 'server'
> {
  name: string;
  /** Completers for the template's variables. */
  completions?: Record<string, McpCompleter>;
  /** @deprecated Use `completions`; kept for one release. */
  complete?: Record<string, McpCompleter>;
  handler: McpResourceHandler;
}
