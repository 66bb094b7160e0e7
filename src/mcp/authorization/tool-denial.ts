import type { CallToolResult } from '../core/protocol/mcp-types.js';

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
 * `structured: false` leaves out `structuredContent`, for a tool whose
 * output schema the denial would break: official clients validate
 * `structuredContent` against it even on an error result, and would report
 * a schema failure instead of the denial.
 */
export function toolDenial(
  tool: string,
  decision: 'deny' | 'ask',
  detail: string,
  structured = true,
): CallToolResult {
  const denial: McpToolDenial = { error: 'authorization_required', tool, decision, detail };
  const result: CallToolResult = {
    content: [{ type: 'text', text: JSON.stringify(denial) }],
    isError: true,
  };
  if (structured) result.structuredContent = { ...denial };
  return result;
}
