import type { AuthorizerDecision } from '../../authorization/authorizer.interface.js';
import type { CallToolResult } from '../../core/protocol/mcp-types.js';
import type { McpToolEntry } from '../../definitions/interfaces/registry-entry.interface.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import type { McpParkedCall } from '../dispatch/parked-call.js';
import type { McpToolOutcome } from './tool-tasks.interface.js';

/** An authorizer's `ask`: the call runs only if its approver approves. */
export type McpAsk = Extract<AuthorizerDecision, { kind: 'ask' }>;

/**
 * Where the tools handler hands an ask: a port, provided by `approvals/` (`McpAskRouter`), so
 * the engine never imports the layer that decides asks (docs/architecture.md, "Ports").
 */
export interface McpApprovalGate {
  /**
   * An ask for a call whose arguments were checked: answered at once (a denial, when nobody
   * can be asked) or parked until its approver decides; `run` runs the call once approved.
   */
  decide(
    request: McpRequest<{ name: string; arguments?: Record<string, unknown> }>,
    tool: McpToolEntry,
    ask: McpAsk,
    run: () => Promise<McpToolOutcome>,
  ): CallToolResult | McpParkedCall;
}

/** DI token of the approval gate. */
export const MCP_APPROVAL_GATE = Symbol('McpWarden:approval-gate');
