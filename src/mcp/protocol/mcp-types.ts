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

/** @publicApi */
export type Tool = z.infer<typeof ToolSchema>;
/** @publicApi */
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;
/** @publicApi */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
/** @publicApi */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
/** @publicApi */
export type Resource = z.infer<typeof ResourceSchema>;
/** @publicApi */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;
/** @publicApi */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;
/** @publicApi */
export type Prompt = z.infer<typeof PromptSchema>;
/** @publicApi */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;
/** @publicApi */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;
/** @publicApi */
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;
/** @publicApi */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;
/** @publicApi */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
/** @publicApi */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;
/** @publicApi */
export type CreateMessageParams = z.infer<typeof CreateMessageRequestParamsSchema>;
/** @publicApi */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
/** @publicApi */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;

/**
 * A JSON Schema object, kept verbatim (including `$schema` and `$defs`).
 * @publicApi
 */
export type JsonSchemaObject = Record<string, unknown>;
