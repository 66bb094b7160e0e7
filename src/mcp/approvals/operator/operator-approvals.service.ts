import { ApplicationConfig } from '@nestjs/core';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { operatorAskUrl } from './operator-ask.url.js';
import { quotaKeyOf } from '../../authentication/quota-key.js';
import { McpAuditService } from '../../authorization/audit/mcp-audit.service.js';
import type { McpInputRound } from '../../core/multi-round-trip/input-round.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpApprovalsSettings } from '../approvals-settings.interface.js';
import { jsonRpcNotification } from '../../core/protocol/jsonrpc.js';
import { relateToRequest } from '../../core/protocol/related-request.js';
import type { McpConnection } from '../../engine/connection/mcp-connection.js';
import type { McpApprovalVerdict } from '../caller/mcp-approvals.service.js';
import { APPROVED, keptVerdict } from '../caller/approval-verdict.js';
import { promptText } from '../caller/prompt-text.js';
import { canElicit } from '../../engine/context/client-requests.js';
import type { McpRequest } from '../../engine/dispatch/mcp-request.interface.js';
import { MCP_APPROVAL_STORE, type McpApprovalStore } from '../stores/approval-store.interface.js';
import type { McpPendingAsk } from './approval-pending.result.js';
import { argumentPreview } from './argument-preview.js';
import { operatorBinding } from './operator-ask.binding.js';
import type {
  McpOperatorAsk,
  McpOperatorAskRecord,
  McpOperatorDecision,
} from './operator-ask.interface.js';
import { waitForOperator } from './operator-wait.js';
import { progressTokenOf, sameCaller, traceOf, policiesOf } from './operator-ask.request.js';

/** What the caller is told while it waits (progress, and the URL-mode notice). */
const WAITING = 'waiting for an operator to approve';
const FULL = 'too many calls awaiting approval';
const TIMED_OUT = 'approval timed out';
const PENDING = 'approval pending';

/** A round that asked: the request answers input-required, so this verdict is never shown. */
const ASKED: McpApprovalVerdict = Object.freeze({ approved: false, detail: 'approval requested' });

/**
 * How an operator approval ended for one call: a verdict, or the ask still pending when the
 * call had to answer (the tools handler answers `approvalPendingResult`).
 */
export type McpOperatorVerdict =
  | McpApprovalVerdict
  | { readonly approved: false; readonly detail: string; readonly pending: McpPendingAsk };

/**
 * Four-eyes approval of an `ask` with `approver: 'operator'` (docs/operator-approvals.md):
 * the call is recorded in the approval store under its binding (caller, tool, arguments) and
 * waits for an operator's decision taken through the desk, on any instance. Nothing the
 * caller sends can approve it. Handshake era: the call parks, told by progress that it waits,
 * and answers "approval pending" after `approvals.answerWithinMs`; the same call made again
 * finds the ask by its binding and runs once it is approved. Modern era: a client that can
 * open a URL gets input-required with a URL-mode notice, its sealed state names the ask and
 * a retry reads the record; any other gets "approval pending" at once.
 */
@Injectable()
export class McpOperatorApprovals {
  /* The parked waits per connection, so a shutdown answers them while the channel is open. */
  private readonly parked = new Map<McpConnection, Set<(detail: string) => void>>();

  constructor(
    @Inject(MCP_APPROVAL_STORE) private readonly store: McpApprovalStore,
    private readonly audit: McpAuditService,
    @Inject(MCP_OPTIONS) private readonly options: McpApprovalsSettings,
    @Optional() private readonly config?: ApplicationConfig,
  ) {}

  /** The operator's verdict on running `tool` for `request`; resolves, never rejects. */
  approve(request: McpRequest, tool: string, prompt: string): Promise<McpOperatorVerdict> {
    const text = promptText(prompt, this.options.limits.maxPromptChars);
    const round = request.input;
    const verdict =
      round && (round.problem || round.operatorAsk !== undefined)
        ? this.resumed(request, round, tool)
        : this.called(request, tool, text);
    // The store failing (Redis away) denies: fail closed, with nothing internal in the detail.
    return verdict.catch(() => this.ended(request, tool, 'approval failed'));
  }

  /** Ends `connection`'s parked waits as its closing would ("connection closed"). */
  abandonFor(connection: McpConnection): void {
    for (const end of [...(this.parked.get(connection) ?? [])]) end('connection closed');
  }

  /** A call that names no ask: the ask its binding holds (a retry), else a new one. */
  private async called(
    request: McpRequest,
    tool: string,
    prompt: string,
  ): Promise<McpOperatorVerdict> {
    const binding = operatorBinding(request);
    let ask = await this.store.bound(binding);
    if (!ask) {
      const fresh = this.newAsk(request, tool, prompt);
      if (await this.store.add(fresh, binding)) {
        this.audit.record(
          request,
          'operator',
          tool,
          'ask',
          fresh.prompt,
          undefined,
          traceOf(request),
        );
        ask = fresh;
      } else {
        // Full, or the same call made at the same time recorded its ask first: wait on that.
        ask = await this.store.bound(binding);
        if (!ask) return this.ended(request, tool, FULL);
      }
    }
    if (ask.decision) return this.use(request, tool, ask);
    const round = request.input;
    if (!round) return this.park(request, tool, ask);
    // Modern era: a client that declared URL-mode elicitation is pointed at the console and
    // retries with the state; any other could not fulfil that request, so it is told in words.
    if (!canElicit(request, 'url')) return this.pending(request, tool, ask);
    round.awaitOperator(ask.id, this.notice(ask));
    return ASKED;
  }

  /** A modern retry whose verified state names the ask (or a state this server refused). */
  private async resumed(
    request: McpRequest,
    round: McpInputRound,
    tool: string,
  ): Promise<McpOperatorVerdict> {
    if (round.problem) {
      // A state is sealed after its ask and lives as long: once it expired, so had the ask.
      const detail = round.problem === 'approval expired' ? TIMED_OUT : round.problem;
      return this.ended(request, tool, detail);
    }
    const id = round.operatorAsk!;
    const record = await this.store.get(id);
    if (!record) return this.ended(request, tool, TIMED_OUT);
    if (record.tool !== tool || !sameCaller(record, request)) {
      return this.ended(request, tool, 'approval state invalid');
    }
    if (!record.decision) {
      round.awaitOperator(id, this.notice(record));
      return ASKED;
    }
    return this.use(request, tool, record);
  }

  /** A handshake-era call waits for the decision until `answerWithinMs`, then answers. */
  private async park(
    request: McpRequest,
    tool: string,
    ask: McpOperatorAsk,
  ): Promise<McpOperatorVerdict> {
    const token = progressTokenOf(request);
    let sent = 0;
    const wait = waitForOperator(this.store, ask, {
      signal: request.signal,
      abortDetail: () => (request.cancelled ? 'call cancelled' : 'connection closed'),
      progress: (count) => {
        if (token === undefined || count <= sent) return;
        sent = count;
        const notice = jsonRpcNotification('notifications/progress', {
          progressToken: token,
          progress: count,
          message: WAITING,
        });
        request.connection.send(relateToRequest(notice, request.id));
      },
      // A task's caller polls the task, not this call: it waits as long as the ask lives.
      until: request.detached ? ask.expiresAt : Date.now() + this.options.approvals.answerWithinMs,
    });
    const ends = this.parked.get(request.connection) ?? new Set<(detail: string) => void>();
    this.parked.set(request.connection, ends.add(wait.end));
    const outcome = await wait.outcome;
    ends.delete(wait.end);
    if (ends.size === 0) this.parked.delete(request.connection);
    if ('record' in outcome) return this.use(request, tool, outcome.record);
    if ('pending' in outcome) return this.pending(request, tool, ask);
    // Cancelled, its connection closed, shut down or expired: the ask goes with the call (an
    // operator must not approve a call nobody waits for). The answer does not wait for the
    // store: at shutdown the channel closes a turn after the wait is ended, and a removal from
    // Redis takes longer than that (the answer would be lost). It is issued now, before the
    // store's connection can close.
    void this.store.remove(ask.id).catch(() => undefined);
    return this.ended(request, tool, outcome.ended);
  }

  /**
   * A decided ask. A deny stands until the ask expires: the same call keeps getting it, and
   * nobody is asked again. An approval runs one call: of the calls using it at once, on any
   * instance, only the one that takes it from the store runs.
   */
  private async use(
    request: McpRequest,
    tool: string,
    record: McpOperatorAskRecord,
  ): Promise<McpOperatorVerdict> {
    const decision = record.decision!;
    if (decision.approved && !(await this.store.take(record.id))) {
      return this.ended(request, tool, 'approval already used');
    }
    return this.decided(request, tool, decision);
  }

  private pending(request: McpRequest, tool: string, ask: McpOperatorAsk): McpOperatorVerdict {
    this.audit.record(request, 'operator', tool, 'ask', PENDING);
    const url = this.askUrl(ask.id);
    const pending: McpPendingAsk = {
      tool,
      prompt: ask.prompt,
      id: ask.id,
      expiresAt: ask.expiresAt,
      // The URN names the ask but opens nothing: only a console page is worth showing.
      ...(url.startsWith('urn:') ? {} : { url }),
    };
    return { approved: false, detail: PENDING, pending };
  }

  /*
   * An approval whose record cannot be kept (failClosed) is withdrawn; it was taken from the
   * store already, so the call must be asked about again.
   */
  private async decided(
    request: McpRequest,
    tool: string,
    decision: McpOperatorDecision,
  ): Promise<McpApprovalVerdict> {
    const detail = decision.approved
      ? 'operator approved'
      : `operator denied: ${decision.reason ?? 'no reason given'}`;
    const verdict: McpApprovalVerdict = decision.approved ? APPROVED : { approved: false, detail };
    // Stamped when the operator decided, not when the call came back for the decision.
    const stands = await this.audit.answered(
      request,
      'operator',
      tool,
      verdict.approved,
      detail,
      decision.operator,
      decision.decidedAt,
    );
    return keptVerdict(verdict, stands);
  }

  private ended(request: McpRequest, tool: string, detail: string): McpApprovalVerdict {
    this.audit.record(request, 'operator', tool, 'deny', detail);
    return { approved: false, detail };
  }

  private newAsk(request: McpRequest, tool: string, prompt: string): McpOperatorAsk {
    const now = Date.now();
    const { principal } = request;
    const args = (request.params as { arguments?: unknown }).arguments ?? {};
    const call = this.audit.originOf(request);
    return {
      id: randomBytes(18).toString('base64url'),
      tool,
      prompt,
      caller: {
        ...(principal ? { subject: principal.subject } : {}),
        ...(principal?.issuer !== undefined ? { issuer: principal.issuer } : {}),
        key: quotaKeyOf(principal, request.httpRequest, request.connection.id),
      },
      preview: argumentPreview(args),
      ...policiesOf(request),
      createdAt: now,
      expiresAt: now + this.options.elicitationTimeoutMs,
      ...(call ? { call } : {}),
    };
  }

  /** The modern era's notice: a URL-mode elicitation at the console's page for the ask, if any. */
  private notice(ask: McpOperatorAsk) {
    return {
      method: 'elicitation/create',
      params: {
        mode: 'url',
        message: `An operator must approve running the ${ask.tool} tool: ${ask.prompt}`,
        url: this.askUrl(ask.id),
      },
    };
  }

  private askUrl(id: string): string {
    const { console: settings, path } = this.options.approvals;
    const globalPrefix = this.config?.getGlobalPrefix();
    return operatorAskUrl(id, { origin: settings?.oidc?.publicUrl, path, globalPrefix });
  }
}
