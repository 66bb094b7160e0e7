import { Inject, Injectable } from '@nestjs/common';
import { McpAuditService } from '../authorization/audit/mcp-audit.service.js';
import { toolDenial } from '../authorization/tool-denial.js';
import { MCP_OPTIONS } from '../core/options/options.constants.js';
import type { CallToolResult } from '../core/protocol/mcp-types.js';
import type { McpToolEntry } from '../definitions/interfaces/registry-entry.interface.js';
import type { McpRequest } from '../engine/dispatch/mcp-request.interface.js';
import { McpParkedCall } from '../engine/dispatch/parked-call.js';
import type { McpApprovalGate, McpAsk } from '../engine/tools/approval-gate.interface.js';
import type { McpToolOutcome } from '../engine/tools/tool-tasks.interface.js';
import type { McpApprovalsSettings } from './approvals-settings.interface.js';
import type { McpApprovalVerdict } from './caller/approval-verdict.js';
import { McpApprovals } from './caller/mcp-approvals.service.js';
import { promptText } from './caller/prompt-text.js';
import { approvalPendingResult } from './operator/approval-pending.result.js';
import { McpOperatorApprovals } from './operator/operator-approvals.service.js';

/**
 * Routes each ask to its approver: the operator desk when the authorizer named the operator,
 * else the caller (elicitation, or the modern era's approval round). It is the engine's
 * `MCP_APPROVAL_GATE`; the tools handler hands it every ask, with its arguments checked.
 */
@Injectable()
export class McpAskRouter implements McpApprovalGate {
  constructor(
    private readonly caller: McpApprovals,
    private readonly operator: McpOperatorApprovals,
    @Inject(MCP_OPTIONS) private readonly options: McpApprovalsSettings,
    private readonly audit: McpAuditService,
  ) {}

  decide(
    request: McpRequest<{ name: string; arguments?: Record<string, unknown> }>,
    tool: McpToolEntry,
    ask: McpAsk,
    run: () => Promise<McpToolOutcome>,
  ): CallToolResult | McpParkedCall {
    const name = tool.tool.name;
    const structured = tool.tool.outputSchema === undefined;
    if (ask.approver === 'operator') {
      const verdict = this.operator.approve(request, name, ask.prompt);
      return new McpParkedCall(
        verdict.then((approval) =>
          approval.approved
            ? run()
            : 'pending' in approval
              ? approvalPendingResult(approval.pending, structured)
              : denial(name, approval, structured),
        ),
      );
    }
    // Refused without asking anyone: the ask's story ends in a recorded refusal, with its reason.
    if (!this.caller.canAsk(request)) {
      this.audit.refused(request, name, 'approval_unavailable');
      const prompt = promptText(ask.prompt, this.options.limits.maxPromptChars);
      return toolDenial(name, 'ask', prompt, structured);
    }
    if (!this.caller.hasRoom(request)) {
      this.audit.refused(request, name, 'approvals_full');
      return toolDenial(name, 'ask', 'too many calls awaiting approval', structured);
    }
    const closed = this.caller
      .ask(request, name, ask.prompt)
      .then((approval) => (approval.approved ? run() : denial(name, approval, structured)));
    return new McpParkedCall(closed);
  }
}

/* An ask that ended without approval: denied as the ask it was, or as its verdict says. */
function denial(
  name: string,
  verdict: Extract<McpApprovalVerdict, { approved: false }>,
  structured: boolean,
): CallToolResult {
  return toolDenial(name, verdict.decision ?? 'ask', verdict.detail, structured);
}
