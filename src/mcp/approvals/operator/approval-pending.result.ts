import type { McpToolDenial } from '../../authorization/tool-denial.js';
import type { CallToolResult } from '../../core/protocol/mcp-types.js';

/** The `_meta` key of the pending marker on an "approval pending" result. */
export const APPROVAL_PENDING_META = 'mcp-warden/approval';

/**
 * The machine-readable part of an "approval pending" result (docs/operator-approvals.md):
 * in `_meta[APPROVAL_PENDING_META]` always, and in `structuredContent.approval` unless the
 * tool has an output schema.
 * @publicApi
 */
export interface McpApprovalPending {
  readonly status: 'pending';
  /** The operator ask the call waits on. */
  readonly id: string;
  /** When the ask expires undecided (ISO 8601); a call after that makes a new ask. */
  readonly expiresAt: string;
  /** The console's page for the ask, when the console has a public origin. */
  readonly url?: string;
}

/** The denial shape, with the pending ask: what `structuredContent` holds. */
export interface McpApprovalPendingDenial extends McpToolDenial {
  readonly approval: McpApprovalPending;
}

/** An operator ask still undecided when its call had to answer. */
export interface McpPendingAsk {
  readonly tool: string;
  readonly prompt: string;
  readonly id: string;
  readonly expiresAt: number;
  readonly url?: string;
}

/**
 * The answer of a call whose operator ask is still pending: an error result (the tool did not
 * run) that says, in words a model or a person can act on, that an operator must approve,
 * where, until when, and that the same call made again once approved runs. `structured:
 * false` leaves out `structuredContent`, as `toolDenial` does, for a tool with an output
 * schema.
 */
export function approvalPendingResult(ask: McpPendingAsk, structured = true): CallToolResult {
  const expiresAt = new Date(ask.expiresAt).toISOString();
  const approval: McpApprovalPending = {
    status: 'pending',
    id: ask.id,
    expiresAt,
    ...(ask.url !== undefined ? { url: ask.url } : {}),
  };
  const where = ask.url !== undefined ? ` at ${ask.url}` : '';
  const text =
    `An operator must approve running the ${ask.tool} tool: ${ask.prompt}\n` +
    `The approval is pending${where} until ${expiresAt}. The tool did not run. ` +
    `Once an operator approves, call ${ask.tool} again with the same arguments: it then runs once.`;
  const result: CallToolResult = {
    content: [{ type: 'text', text }],
    isError: true,
    _meta: { [APPROVAL_PENDING_META]: approval },
  };
  if (structured) {
    const denial: McpApprovalPendingDenial = {
      error: 'authorization_required',
      tool: ask.tool,
      decision: 'ask',
      detail: 'approval pending',
      approval,
    };
    result.structuredContent = { ...denial };
  }
  return result;
}
