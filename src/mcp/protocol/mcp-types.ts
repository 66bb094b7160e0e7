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
export type Tool = z.infer<typeof ToolSchema>;
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type Resource = z.infer<typeof ResourceSchema>;
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;
export type Prompt = z.infer<typeof PromptSchema>;
export type PromptMessage = z.infer<typeof PromptMessageSchema>;
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
export type ElicitResult = z.infer<typeof ElicitResultSchema>;
export type CreateMessageParams = z.infer<typeof CreateMessageRequestParamsSchema>;
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;

/** A JSON Schema object, kept verbatim (including `$schema` and `$defs`). */
export type JsonSchemaObject = Record<string, unknown>;
