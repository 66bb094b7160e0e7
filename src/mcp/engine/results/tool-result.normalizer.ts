import type { CallToolResult } from '../../core/protocol/mcp-types.js';

/**
 * Turns what a tool handler returned into a `CallToolResult`: a string is one
 * text block; an array is the content; an object with a `content` array is
 * taken as the full result; any other object is sent as `structuredContent`
 * plus its JSON text; nothing is an empty content list.
 */
export function normalizeToolResult(value: unknown): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (Array.isArray(value)) return { content: value as CallToolResult['content'] };
  if (typeof value === 'object') {
    if (Array.isArray((value as { content?: unknown }).content)) return value as CallToolResult;
    return {
      content: [{ type: 'text', text: JSON.stringify(value) }],
      structuredContent: value as Record<string, unknown>,
    };
  }
  return { content: [{ type: 'text', text: String(value) }] };
}

/** A tool result reporting a failure the model may read. */
export function toolErrorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
