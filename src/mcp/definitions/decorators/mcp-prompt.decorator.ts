import { SetMetadata } from '@nestjs/common';
import { MCP_PROMPT_METADATA } from '../../core/mcp.constants.js';
import type { McpPromptOptions } from '../interfaces/prompt.interface.js';

/**
 * Marks a provider method as an MCP prompt. The method receives the prompt's
 * string arguments and returns a `GetPromptResult` or its `messages`.
 *
 * @example
 * @McpPrompt({ description: 'Summarise a note', arguments: [{ name: 'id', required: true }] })
 * summarise({ id }: Record<string, string>) { return [{ role: 'user', content: { ... } }]; }
 * @publicApi
 */
export const McpPrompt = (options: McpPromptOptions): MethodDecorator =>
  SetMetadata(MCP_PROMPT_METADATA, options);
