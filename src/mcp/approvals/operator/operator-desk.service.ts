import { Inject, Injectable } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import { hasPrincipalIdentity, samePrincipal } from '../../authentication/principal-identity.js';
import type { McpAuditOrigin } from '../../authorization/audit/audit-origin.js';
import { McpAuditService } from '../../authorization/audit/mcp-audit.service.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpApprovalsSettings } from '../approvals-settings.interface.js';
import {
  MCP_APPROVAL_STORE,
  type McpApprovalStore,
  type McpOperatorAskPage,
} from '../stores/approval-store.interface.js';
import type {
  McpOperatorAskEvent,
  McpOperatorAskRecord,
  McpOperatorDecision,
} from './operator-ask.interface.js';
import type { McpOperatorDesk, McpOperatorDeskProblem } from './operator-desk.interface.js';

/** The longest reason kept; a longer one is cut (it is shown to the caller and in the audit). */
export const MAX_REASON_CHARS = 500;

type DeskAnswer =
  { ok: true; record: McpOperatorAskRecord } | { ok: false; problem: McpOperatorDeskProblem };

/**
 * The operator desk (docs/operator-approvals.md): what every way of deciding an operator ask
 * goes through, so the four-eyes rule holds whatever calls it. An operator
 * must hold the approver scope and must not be the caller (`samePrincipal`:
 * the same subject within the same issuer, compared exactly); a deny needs a reason; the first decision wins on
 * every instance (the store decides atomically).
 */
@Injectable()
export class McpOperatorDeskService implements McpOperatorDesk {
  readonly events$: Observable<McpOperatorAskEvent>;

  constructor(
    @Inject(MCP_APPROVAL_STORE) private readonly store: McpApprovalStore,
    @Inject(MCP_OPTIONS) private readonly options: McpApprovalsSettings,
    private readonly audit: McpAuditService,
  ) {
    this.events$ = new Observable<McpOperatorAskEvent>((subscriber) =>
      this.store.watch((event) => subscriber.next(event)),
    );
  }

  pending(options?: { cursor?: string; limit?: number }): Promise<McpOperatorAskPage> {
    return this.store.pending(options);
  }

  get(id: string): Promise<McpOperatorAskRecord | undefined> {
    return this.store.get(id);
  }

  async decide(
    id: string,
    operator: McpPrincipal,
    input: { approve: boolean; reason?: string; via: McpOperatorDecision['via'] },
  ): Promise<DeskAnswer> {
    if (!this.isApprover(operator)) return { ok: false, problem: 'not an approver' };
    const reason = reasonOf(input.reason);
    if (!input.approve && reason === undefined) return { ok: false, problem: 'reason required' };
    const record = await this.store.get(id);
    if (!record) return { ok: false, problem: 'not found' };
    if (samePrincipal(record.caller, operator)) return { ok: false, problem: 'own call' };
    if (record.decision) return { ok: false, problem: 'already decided' };
    const decision: McpOperatorDecision = {
      approved: input.approve === true,
      operator: operator.subject,
      ...(reason !== undefined ? { reason } : {}),
      decidedAt: Date.now(),
      via: input.via,
    };
    const decided = await this.store.decide(id, decision);
    if (decided) {
      this.audit.operatorDecided(callOf(decided), decided.tool, decision, decision.decidedAt);
      return { ok: true, record: decided };
    }
    // Someone else decided first (or it expired, or its call ended) between the read and now.
    const now = await this.store.get(id);
    return { ok: false, problem: now?.decision ? 'already decided' : 'not found' };
  }

  /** Whether `principal` holds the approver scope. */
  isApprover(principal: McpPrincipal | undefined): boolean {
    return (
      hasPrincipalIdentity(principal) &&
      Array.isArray(principal!.scopes) &&
      principal!.scopes.includes(this.options.approvals.scope)
    );
  }
}

/* A reason, trimmed and bounded; undefined when there is none to speak of. */
function reasonOf(reason: unknown): string | undefined {
  if (typeof reason !== 'string') return undefined;
  // Control characters would let a reason forge lines in a log or the audit trail.
  // eslint-disable-next-line no-control-regex
  const trimmed = reason.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  if (trimmed === '') return undefined;
  return trimmed.length > MAX_REASON_CHARS ? trimmed.slice(0, MAX_REASON_CHARS) : trimmed;
}

/*
 * The call an ask is for, as its records name it. An ask that does not keep it (made where
 * nothing recorded, during a rolling upgrade, or by a store that keeps only the fields it knows)
 * names its caller, and no connection or request it cannot know.
 */
function callOf(ask: McpOperatorAskRecord): McpAuditOrigin {
  if (ask.call) return ask.call;
  const { subject, issuer } = ask.caller;
  return {
    connId: 'unknown',
    requestId: 'unknown',
    transport: 'unknown',
    ...(subject !== undefined ? { principal: subject } : {}),
    ...(issuer !== undefined ? { issuer } : {}),
  };
}
