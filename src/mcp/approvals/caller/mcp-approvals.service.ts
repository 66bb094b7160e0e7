import { Inject, Injectable } from '@nestjs/common';
import { quotaKeyOf } from '../../authentication/quota-key.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpApprovalsSettings } from '../approvals-settings.interface.js';
import { McpAuditService } from '../../authorization/audit/mcp-audit.service.js';
import { canElicit } from '../../engine/context/client-requests.js';
import type { McpRequest } from '../../engine/dispatch/mcp-request.interface.js';
import { McpOutboundRequests } from '../../engine/outbound/mcp-outbound-requests.service.js';
import { McpOutboundRequestError } from '../../engine/outbound/outbound-request.errors.js';
import { approvalInRound } from './approval-round.js';
import { approvalVerdictOf, keptVerdict, type McpApprovalVerdict } from './approval-verdict.js';
import { promptText } from './prompt-text.js';
import type { McpInputRound } from '../../core/multi-round-trip/input-round.js';
import { MCP_APPROVAL_TELEMETRY, type McpApprovalTelemetry } from '../approval-wait.js';

export type { McpApprovalVerdict } from './approval-verdict.js';

/** Why an approval failed, by how its elicitation ended. */
const FAILURE_DETAIL: Record<string, string> = {
  timeout: 'elicitation timed out',
  error_reply: 'elicitation failed',
  connection_closed: 'connection closed',
  cancelled: 'call cancelled',
};

/** A round that asked: the request answers input-required, so this verdict is never shown. */
const ASKED: McpApprovalVerdict = Object.freeze({ approved: false, detail: 'approval requested' });

/**
 * Human approval for `ask` decisions on the tool seam: one
 * `elicitation/create` to the caller's connection only, turned into a
 * verdict. Only an explicit approval approves; every other ending (decline,
 * cancel, accept without approval, an error reply, a timeout, the connection
 * closing) is a verdict with the reason. Silence is never consent. In the
 * modern era the question rides the input-required result instead, and the
 * answer comes back with the retry (docs/protocol-revisions.md).
 */
@Injectable()
export class McpApprovals {
  /* Calls awaiting approval per caller: one caller cannot fill the pool over many connections. */
  private readonly perCaller = new Map<string, number>();

  constructor(
    private readonly outbound: McpOutboundRequests,
    private readonly audit: McpAuditService,
    @Inject(MCP_OPTIONS) private readonly options: McpApprovalsSettings,
    @Inject(MCP_APPROVAL_TELEMETRY) private readonly telemetry: McpApprovalTelemetry,
  ) {}

  /** Whether `request`'s caller can be asked at all: it declared form elicitation and is connected. */
  canAsk(request: McpRequest): boolean {
    return canElicit(request, 'form') && (request.input !== undefined || request.connection.live);
  }

  /** Whether one more call of this caller may wait for approval (per connection, caller, and in all). */
  hasRoom(request: McpRequest): boolean {
    // A modern round holds nothing on the server while the client decides.
    if (request.input) return true;
    const held = this.perCaller.get(callerOf(request)) ?? 0;
    return (
      this.outbound.hasRoom(request.connection) && held < this.options.limits.maxPendingPerPrincipal
    );
  }

  /** Asks the caller to approve running `tool`; resolves (never rejects) with the verdict. */
  async ask(request: McpRequest, tool: string, prompt: string): Promise<McpApprovalVerdict> {
    const params = approvalQuestion(tool, promptText(prompt, this.options.limits.maxPromptChars));
    if (request.input) return this.askInRound(request, request.input, tool, params);
    const caller = callerOf(request);
    this.perCaller.set(caller, (this.perCaller.get(caller) ?? 0) + 1);
    let verdict: McpApprovalVerdict;
    const wait = this.telemetry.approvalWait(request, tool);
    try {
      const question = wait.carrying(params);
      const answer = await this.outbound.request(
        request.connection,
        'elicitation/create',
        question,
        {
          relatedRequestId: request.id,
          signal: request.signal,
        },
      );
      verdict = approvalVerdictOf(answer);
    } catch (error) {
      const reason = error instanceof McpOutboundRequestError ? error.reason : 'error_reply';
      verdict = { approved: false, detail: FAILURE_DETAIL[reason] ?? 'elicitation failed' };
    } finally {
      const left = (this.perCaller.get(caller) ?? 1) - 1;
      if (left > 0) this.perCaller.set(caller, left);
      else this.perCaller.delete(caller);
    }
    wait.end(verdict.approved, verdict.approved ? 'user approved' : verdict.detail);
    return this.recorded(request, tool, verdict);
  }

  private askInRound(
    request: McpRequest,
    round: McpInputRound,
    tool: string,
    question: object,
  ): McpApprovalVerdict | Promise<McpApprovalVerdict> {
    const outcome = approvalInRound(round, question, approvalVerdictOf);
    if ('asked' in outcome) return ASKED;
    return this.recorded(request, tool, outcome);
  }

  /* The caller's answer, once recorded: an approval whose record cannot be kept is withdrawn. */
  private async recorded(
    request: McpRequest,
    tool: string,
    verdict: McpApprovalVerdict,
  ): Promise<McpApprovalVerdict> {
    const detail = verdict.approved ? 'user approved' : verdict.detail;
    const stands = await this.audit.answered(
      request,
      'elicitation',
      tool,
      verdict.approved,
      detail,
    );
    return keptVerdict(verdict, stands);
  }
}

/** The approval question (docs/approvals.md): one required boolean. */
function approvalQuestion(tool: string, prompt: string): object {
  return {
    message: prompt,
    requestedSchema: {
      type: 'object',
      properties: {
        approve: { type: 'boolean', description: `Approve running the ${tool} tool` },
      },
      required: ['approve'],
    },
  };
}

function callerOf(request: McpRequest): string {
  return quotaKeyOf(request.principal, request.httpRequest, request.connection.id);
}
