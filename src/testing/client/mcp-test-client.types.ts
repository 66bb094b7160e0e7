import type { z } from 'zod';
import type {
  CompleteRequestParamsSchema,
  CompleteResultSchema,
  ElicitRequestParamsSchema,
  ImplementationSchema,
  InitializeResultSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
} from '@modelcontextprotocol/core';

/*
 * Wire types the test client speaks beyond those the framework already names
 * (`Tool`, `CallToolResult`, … in `mcp-types.ts`), inferred from the official
 * schemas so they are never hand-written.
 */

/** What `initialize` answered: the negotiated version, the server's info and capabilities. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;
/** A client's or server's `{ name, version }`. */
export type Implementation = z.infer<typeof ImplementationSchema>;
/** One page of `tools/list`. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;
/** One page of `resources/list`. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;
/** One page of `resources/templates/list`. */
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;
/** One page of `prompts/list`. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;
/** What `completion/complete` answers. */
export type CompleteResult = z.infer<typeof CompleteResultSchema>;
/** The params of an `elicitation/create` request (form or URL mode). */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/** The parameters of `completion/complete`. */
export type CompleteParams = z.infer<typeof CompleteRequestParamsSchema>;
/**
 * What `completion/complete` completes: a prompt, a resource template, or
 * (an MCP Warden extension) a tool's argument.
 */
export type McpCompletionRef = CompleteParams['ref'] | { type: 'ref/tool'; name: string };
/** The argument being completed: its name and the text typed so far. */
export type McpCompletionArgument = CompleteParams['argument'];

/** Any JSON-RPC message the server sends to a client. */
export type JsonRpcServerMessage = z.infer<typeof JSONRPCMessageSchema>;
/** A notification the server sent (`notifications/progress`, `…/list_changed`, …). */
export type JsonRpcServerNotification = z.infer<typeof JSONRPCNotificationSchema>;
