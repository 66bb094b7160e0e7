import type { z } from 'zod';
import type {
  CallToolResultSchema,
  ClientCapabilitiesSchema,
  ContentBlockSchema,
  GetPromptResultSchema,
  LoggingLevelSchema,
  PromptMessageSchema,
  PromptSchema,
  ReadResourceResultSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  ServerCapabilitiesSchema,
  ToolAnnotationsSchema,
  ToolSchema,
  ElicitResultSchema,
  CreateMessageRequestParamsSchema,
  CreateMessageResultSchema,
  ListRootsResultSchema,
} from '@modelcontextprotocol/core';

/*
 * Protocol types, inferred from the official MCP schema package so the wire
 * shapes are never hand-written here.
 */

/**
 * A tool as `tools/list` describes it.
 * @publicApi
 */
export type Tool = z.infer<typeof ToolSchema>;
/**
 * A tool's behaviour hints (`readOnlyHint`, `destructiveHint`, …).
 * @publicApi
 */
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;
/**
 * The result of `tools/call`: content blocks, optional `structuredContent`, `isError`.
 * @publicApi
 */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
/**
 * One block of content: text, image, audio, a resource link or an embedded resource.
 * @publicApi
 */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
/**
 * A resource as `resources/list` describes it.
 * @publicApi
 */
export type Resource = z.infer<typeof ResourceSchema>;
/**
 * A resource template as `resources/templates/list` describes it.
 * @publicApi
 */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;
/**
 * The result of `resources/read`: the contents at the URI.
 * @publicApi
 */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;
/**
 * A prompt as `prompts/list` describes it.
 * @publicApi
 */
export type Prompt = z.infer<typeof PromptSchema>;
/**
 * One message of a rendered prompt.
 * @publicApi
 */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;
/**
 * The result of `prompts/get`: the rendered messages.
 * @publicApi
 */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;
/**
 * A log level of `logging/setLevel` and `notifications/message`.
 * @publicApi
 */
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;
/**
 * What a client declared it supports at initialization.
 * @publicApi
 */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;
/**
 * What the server declares it supports at initialization.
 * @publicApi
 */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
/**
 * A client's answer to `elicitation/create`: accept (with content), decline or cancel.
 * @publicApi
 */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;
/**
 * The parameters of a `sampling/createMessage` request to the client.
 * @publicApi
 */
export type CreateMessageParams = z.infer<typeof CreateMessageRequestParamsSchema>;
/**
 * The client's answer to `sampling/createMessage`.
 * @publicApi
 */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
/**
 * The client's answer to `roots/list`.
 * @publicApi
 */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;

/**
 * A JSON Schema object, kept verbatim (including `$schema` and `$defs`).
 * @publicApi
 */
export type JsonSchemaObject = Record<string, unknown>;
