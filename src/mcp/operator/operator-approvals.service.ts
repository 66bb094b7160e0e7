import { ApplicationConfig } from '@nestjs/core';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { operatorAskUrl } from './operator-ask.url.js';
import { quotaKeyOf } from '../auth/quota-key.js';
import { McpAuditService } from '../authorizer/audit/mcp-audit.service.js';
import type { McpInputRound } from '../era/mrtr/input-round.js';
import { MCP_OPTIONS } from '../options/options.constants.js';
import type { McpResolvedOptions } from '../options/resolved-options.interface.js';
import { jsonRpcNotification } from '../protocol/jsonrpc.js';
import { relateToRequest } from '../protocol/related-request.js';
import type { McpConnection } from '../server/connection/mcp-connection.js';
import type { McpApprovalVerdict } from '../server/approval/mcp-approvals.service.js';
import { promptText } from '../server/approval/prompt-text.js';
import type { McpRequest } from '../server/dispatch/mcp-request.interface.js';
import { MCP_APPROVAL_STORE, type McpApprovalStore } from './approval-store.interface.js';
import { argumentPreview } from './argument-preview.js';
import type {
  McpOperatorAsk,
  McpOperatorAskRecord,
  McpOperatorDecision,
} from './operator-ask.interface.js';
import { waitForOperator } from './operator-wait.js';

/** What the caller is told while it waits (progress, and the URL-mode notice). */
const WAITING = 'waiting for an operator to approve';
const FULL = 'too many calls awaiting approval';
const TIMED_OUT = 'approval timed out';

/** A round that asked: the request answers input-required, so this verdict is never shown. */
const ASKED: McpApprovalVerdict = Object.freeze({ approved: false, detail: 'approval requested' });

/**
 * Four-eyes approval of an `ask` with `approver: 'operator'` (docs/operator-approvals.md):
 * the call is recorded in the approval store and waits for an operator's
 * decision taken through the desk, on any instance. Nothing the caller sends
 * can approve it. Handshake era: the call parks, told by progress that it
 * waits. Modern era: the call answers input-required with a URL-mode notice,
 * its sealed state names the ask, and a retry reads the ask's record.
 */
@Injectable()
export class McpOperatorApprovals {
  /* The parked waits per connection, so a shutdown answers them while the channel is open. */
  private readonly parked = new Map<McpConnection, Set<(detail: string) => void>>();

  constructor(
    @Inject(MCP_APPROVAL_STORE) private readonly store: McpApprovalStore,
    private readonly audit: McpAuditService,
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    @Optional() private readonly config?: ApplicationConfig,
  ) {}

  /** The operator's verdict on running `tool` for `request`; resolves, never rejects. */
  approve(request: McpRequest, tool: string, prompt: string): Promise<McpApprovalVerdict> {
    const text = promptText(prompt, this.options.limits.maxPromptChars);
    const verdict = request.input
      ? this.inRound(request, request.input, tool, text)
      : this.park(request, tool, text);
    // The store failing (Redis away) denies: fail closed, with nothing internal in the detail.
    return verdict.catch(() => this.ended(request, tool, 'approval failed'));
  }

  /** Ends `connection`'s parked waits as its closing would ("connection closed"). */
  abandonFor(connection: McpConnection): void {
    for (const end of [...(this.parked.get(connection) ?? [])]) end('connection closed');
  }

  private async park(
    request: McpRequest,
    tool: string,
    prompt: string,
  ): Promise<McpApprovalVerdict> {
    const ask = this.newAsk(request, tool, prompt);
    if (!(await this.record(request, ask))) return this.ended(request, tool, FULL);
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
    });
    const ends = this.parked.get(request.connection) ?? new Set<(detail: string) => void>();
    this.parked.set(request.connection, ends.add(wait.end));
    try {
      const outcome = await wait.outcome;
      return 'record' in outcome
        ? this.decided(request, tool, outcome.record.decision!)
        : this.ended(request, tool, outcome.ended);
    } finally {
      ends.delete(wait.end);
      if (ends.size === 0) this.parked.delete(request.connection);
      // The call ends here: its approval is used (or moot) and leaves the store. The answer does
      // not wait for the store: at shutdown the channel closes a turn after the wait is ended, and
      // a removal from Redis takes longer than that (the answer would be lost). The removal is
      // issued now, before the store's connection can close.
      void this.store.remove(ask.id).catch(() => undefined);
    }
  }

  private async inRound(
    request: McpRequest,
    round: McpInputRound,
    tool: string,
    prompt: string,
  ): Promise<McpApprovalVerdict> {
    if (round.problem) {
      // A state is sealed after its ask and lives as long: once it expired, so had the ask.
      const detail = round.problem === 'approval expired' ? TIMED_OUT : round.problem;
      return this.ended(request, tool, detail);
    }
    const id = round.operatorAsk;
    if (id === undefined) {
      const ask = this.newAsk(request, tool, prompt);
      if (!(await this.record(request, ask))) return this.ended(request, tool, FULL);
      round.awaitOperator(ask.id, this.notice(ask));
      return ASKED;
    }
    const record = await this.store.get(id);
    if (!record) return this.ended(request, tool, TIMED_OUT);
    if (record.tool !== tool || !sameCaller(record, request)) {
      return this.ended(request, tool, 'approval state invalid');
    }
    if (!record.decision) {
      round.awaitOperator(id, this.notice(record));
      return ASKED;
    }
    // Used once: the state that named it was single-use, and the record goes now.
    await this.store.remove(id);
    return this.decided(request, tool, record.decision);
  }

  private async record(request: McpRequest, ask: McpOperatorAsk): Promise<boolean> {
    const added = await this.store.add(ask).catch(() => false);
    if (added) this.audit.record(request, 'operator', ask.tool, 'ask', ask.prompt);
    return added;
  }

  private decided(
    request: McpRequest,
    tool: string,
    decision: McpOperatorDecision,
  ): McpApprovalVerdict {
    const detail = decision.approved
      ? 'operator approved'
      : `operator denied: ${decision.reason ?? 'no reason given'}`;
    const verdict = decision.approved ? 'allow' : 'deny';
    this.audit.record(request, 'operator', tool, verdict, detail, decision.operator);
    return decision.approved ? { approved: true } : { approved: false, detail };
  }

  private ended(request: McpRequest, tool: string, detail: string): McpApprovalVerdict {
    this.audit.record(request, 'operator', tool, 'deny', detail);
    return { approved: false, detail };
  }

  private newAsk(request: McpRequest, tool: string, prompt: string): McpOperatorAsk {
    const now = Date.now();
    const { principal } = request;
    const args = (request.params as { arguments?: unknown }).arguments ?? {};
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
      createdAt: now,
      expiresAt: now + this.options.elicitationTimeoutMs,
    };
  }

  /** The modern era's notice: a URL-mode elicitation at the console's page for the ask, if any. */
  private notice(ask: McpOperatorAsk | McpOperatorAskRecord) {
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

function progressTokenOf(request: McpRequest): string | number | undefined {
  const token = (request.params as { _meta?: { progressToken?: unknown } })._meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

function sameCaller(record: McpOperatorAskRecord, request: McpRequest): boolean {
  const { principal } = request;
  return (
    record.caller.subject === principal?.subject &&
    (record.caller.issuer ?? '') === (principal?.issuer ?? '')
  );
}
