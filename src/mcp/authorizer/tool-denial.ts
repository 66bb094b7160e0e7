import type { CallToolResult } from '../protocol/mcp-types.js';

/**
 * The object a denied `tools/call` returns, as `structuredContent` and as JSON text.
 * @publicApi
 */
export interface McpToolDenial {
  error: 'authorization_required';
  tool: string;
  decision: 'deny' | 'ask';
  detail: string;
}

/**
 * The result of a call the tool seam refused. Not a JSON-RPC error: a
 * `CallToolResult` with `isError: true`, so the model can read the reason.
 */
export function toolDenial(tool: string, decision: 'deny' | 'ask', detail: string): CallToolResult {
  const denial: McpToolDenial = { error: 'authorization_required', tool, decision, detail };
  return {
    content: [{ type: 'text', text: JSON.stringify(denial) }],
    structuredContent: { ...denial },
    isError: true,
  };
}
