import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Subject, type Observable } from 'rxjs';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpSeamRequest } from '../seam-request.interface.js';
import {
  MCP_DECISION_TELEMETRY,
  type McpDecisionTelemetry,
} from './decision-telemetry.interface.js';
import type { McpAuditEvent, McpAuditOutcome, McpAuditSeam } from './mcp-audit-event.interface.js';
import type { McpPolicyTrace } from '../seam-policy.interface.js';
import {
  MCP_AUDIT_JOURNAL,
  type McpAuditJournal,
  type McpAuditRecording,
} from './audit-journal.interface.js';
import { canonicalArguments, argumentsSnapshot } from './arguments-digest.js';
import { sha256Hex } from '../../core/common/sha256.js';
import { frozen, isoNow } from './event-values.js';
import { AUDIT_UNAVAILABLE } from './audit-reasons.js';
import {
  auditOriginOf,
  operatorDecisionEvent,
  setCaller,
  type McpAuditOrigin,
  type McpOperatorDecisionFacts,
} from './audit-origin.js';

/** The options slice the audit reads. */
interface AuditSettings {
  readonly audit?: McpAuditRecording;
}

/**
 * The stream of audit events (`McpWarden.audit$`), and the journal's feed when `audit.sinks`
 * keep them (docs/audit.md). An event is built only when someone listens or keeps it: this
 * runs on every call.
 */
@Injectable()
export class McpAuditService {
  private readonly subject = new Subject<McpAuditEvent>();
  readonly events$: Observable<McpAuditEvent> = this.subject.asObservable();
  private readonly fullArguments: boolean;

  constructor(
    @Inject(MCP_DECISION_TELEMETRY) private readonly telemetry: McpDecisionTelemetry,
    @Optional() @Inject(MCP_OPTIONS) options: AuditSettings | null = null,
    @Optional() @Inject(MCP_AUDIT_JOURNAL) private readonly journal: McpAuditJournal | null = null,
  ) {
    this.fullArguments = options?.audit?.arguments === 'full';
  }

  /**
   * Records one decision taken for `request`. The tool seam's decision carries the arguments'
   * digest, and its id becomes the request's `auditId`, which approval steps and the outcome
   * link to. Returns the journal's promise when the call must wait for the record.
   */
  record(
    request: McpSeamRequest,
    seam: McpAuditSeam,
    name: string,
    decision: McpAuditEvent['decision'],
    detail?: string,
    operator?: string,
    trace?: McpPolicyTrace,
  ): Promise<void> | undefined {
    const wait = seam === 'tool' && decision !== 'deny';
    return this.decided(request, seam, name, decision, wait, detail, operator, trace);
  }

  /**
   * Records an approver's answer to an ask: the caller's (elicitation) or an operator's, linked
   * to the call's decision. An approval is what lets the tool run, so under `audit.failClosed`
   * it stands only once its record is kept, as the seam's own decision does: when it cannot be,
   * the approval is withdrawn, a deny (`audit_unavailable`) is recorded after it, and the answer
   * is false (docs/audit.md, "When a record cannot be kept"). Resolves with whether to run.
   * `answeredAt` (ms since the epoch): when the approver answered, where that was before this
   * record (an operator decides at the desk; the call takes the decision when it is retried).
   */
  async answered(
    request: McpSeamRequest,
    seam: 'elicitation' | 'operator',
    name: string,
    approved: boolean,
    detail: string,
    operator?: string,
    answeredAt?: number,
  ): Promise<boolean> {
    const decision = approved ? 'allow' : 'deny';
    const kept = this.decided(
      request,
      seam,
      name,
      decision,
      approved,
      detail,
      operator,
      undefined,
      answeredAt,
    );
    if (!kept) return approved;
    try {
      await kept;
      return true;
    } catch {
      this.record(request, seam, name, 'deny', AUDIT_UNAVAILABLE);
      return false;
    }
  }

  /*
   * A decision's event, streamed and journaled; `wait`: the journal's promise is returned.
   * Positional, as record()'s: it runs on every call.
   */
  private decided(
    request: McpSeamRequest,
    seam: McpAuditSeam,
    name: string,
    decision: McpAuditEvent['decision'],
    wait: boolean,
    detail?: string,
    operator?: string,
    trace?: McpPolicyTrace,
    at?: number,
  ): Promise<void> | undefined {
    this.telemetry.decision(request, seam, name, decision, detail);
    if (!this.subject.observed && !this.journal) return undefined;
    const event = this.base(request, 'decision', seam, name, decision);
    if (at !== undefined) event.time = new Date(at).toISOString();
    if (seam === 'tool') {
      const canonical = this.canonicalOf(request);
      if (canonical !== null) {
        event.argumentsDigest = sha256Hex(canonical);
        if (this.fullArguments) event.arguments = argumentsSnapshot(canonical);
      }
      request.auditId = event.id;
    } else if (request.auditId && seam !== 'read') {
      event.of = request.auditId;
    }
    if (detail !== undefined) event.detail = detail;
    if (operator !== undefined) event.operator = operator;
    if (trace) {
      event.policies = frozen(trace.policies);
      event.policyVersion = trace.policyVersion;
      if (trace.shadow) {
        event.shadow = Object.freeze({ ...trace.shadow, policies: frozen(trace.shadow.policies) });
      }
    }
    return this.emit(event, wait);
  }

  /** Whether events are built at all: someone listens, or a journal keeps them. */
  get recording(): boolean {
    return this.journal !== null || this.subject.observed;
  }

  /**
   * Whether a `tools/call`'s arguments can be recorded as the audit promises, by their RFC 8785
   * digest: always, when nothing records. The tool seam asks before it concludes, and denies a
   * call that cannot be (`UNRECORDABLE_ARGUMENTS`); the canonical text is kept for the record.
   */
  recordsArguments(request: McpSeamRequest): boolean {
    if (!this.recording) return true;
    return this.canonicalOf(request) !== null;
  }

  private canonicalOf(request: McpSeamRequest): string | null {
    if (request.canonicalArguments !== undefined) return request.canonicalArguments;
    const args = (request.params as { arguments?: unknown }).arguments;
    return (request.canonicalArguments = canonicalArguments(args) ?? null);
  }

  /**
   * Records how a call that ran ended, linked to its tool seam decision; `detail`, what the
   * outcome alone does not say (`input_required`: a 2026-07-28 round that asked for input).
   */
  outcome(
    request: McpSeamRequest,
    name: string,
    outcome: McpAuditOutcome,
    durationMs: number,
    detail?: string,
  ) {
    if ((!this.subject.observed && !this.journal) || request.outcomeRecorded) return;
    // One outcome a call: a task the server wrote off at shutdown has its own already.
    request.outcomeRecorded = true;
    const event = this.base(request, 'outcome', 'tool', name, 'allow');
    if (request.auditId) event.of = request.auditId;
    event.outcome = outcome;
    if (detail !== undefined) event.detail = detail;
    event.durationMs = Math.round(durationMs * 1000) / 1000;
    void this.emit(event, false);
  }

  /**
   * `request` as its records name it, for an operator's ask that may be decided after the call
   * has gone, on any instance; undefined when nothing records.
   */
  originOf(request: McpSeamRequest): McpAuditOrigin | undefined {
    if (!this.recording) return undefined;
    return auditOriginOf(request, this.telemetry.traceIdOf(request));
  }

  /**
   * Records an operator's decision as it is taken at the desk, on the desk's instance, linked to
   * the call that asked (`origin`), and stamped `at` (when it was decided): a decision no call
   * comes back for, a deny its caller never retries, is in the records too. The call that takes
   * the decision records its answer again, in its own story (`answered`), and waits for that one
   * under `failClosed`: it is what lets the tool run (docs/audit.md).
   */
  operatorDecided(
    origin: McpAuditOrigin,
    name: string,
    decision: McpOperatorDecisionFacts,
    at: number,
  ): void {
    if (this.recording) void this.emit(operatorDecisionEvent(origin, name, decision, at), false);
  }

  /**
   * Records that a call its seam let through (allowed, or asked about) was refused before it
   * ran: `reason` is `unknown_tool`, `insufficient_scope`, `task_only`, `invalid_arguments`,
   * `cancelled` (cancelled before its tool started), `approval_unavailable` (an ask the caller
   * cannot be asked, and no operator was named), `approvals_full` (the caller's calls awaiting
   * approval are at their bound), `forbidden` (a guard of the tool's own refused it) or
   * `enhancer_refused` (its own guard, interceptor or pipe threw before its body ran).
   * A deny linked to the call's decision, so its story ends with why it did not run, not at an
   * allow with no outcome (docs/audit.md). Not a seam's decision: the seam counters skip it.
   */
  refused(request: McpSeamRequest, name: string, reason: string): void {
    if (!this.subject.observed && !this.journal) return;
    const event = this.base(request, 'decision', 'tool', name, 'deny');
    if (request.auditId) event.of = request.auditId;
    event.detail = reason;
    void this.emit(event, false);
  }

  /**
   * Records a token exchange a handler made as its caller (docs/token-exchange.md): the
   * audience, the scope and what came of it, never a token. Linked to the call's decision.
   */
  exchange(
    request: McpSeamRequest,
    name: string,
    report: { audience?: string; scope?: string; result: string; error?: string },
  ): void {
    if (!this.subject.observed && !this.journal) return;
    const granted = report.result !== 'refused';
    // A tool's exchange links to its call's decision; a resource's or prompt's is a read's.
    const seam = request.method === 'tools/call' ? 'tool' : 'read';
    const event = this.base(request, 'exchange', seam, name, granted ? 'allow' : 'deny');
    if (seam === 'tool' && request.auditId) event.of = request.auditId;
    if (typeof report.audience === 'string') event.audience = report.audience;
    if (report.scope) event.scope = report.scope;
    event.detail = granted ? report.result : (report.error ?? 'refused');
    void this.emit(event, false);
  }

  private base(
    request: McpSeamRequest,
    kind: McpAuditEvent['kind'],
    seam: McpAuditSeam,
    name: string,
    decision: McpAuditEvent['decision'],
  ): McpAuditEvent {
    const event: McpAuditEvent = {
      id: randomUUID(),
      kind,
      time: isoNow(),
      connId: request.connection.id,
      requestId: request.id,
      transport: request.transport,
      seam,
      name,
      decision,
    };
    if (request.era) event.era = request.era;
    const traceId = this.telemetry.traceIdOf(request);
    if (traceId) event.traceId = traceId;
    setCaller(event, request.principal);
    return event;
  }

  /**
   * Streams the event and hands it to the journal. `wait`: the caller must not act before the
   * record is kept, so under `failClosed` the journal's promise is returned; any other failure
   * is counted by the journal and is not the caller's.
   */
  private emit(event: McpAuditEvent, wait: boolean): Promise<void> | undefined {
    if (this.subject.observed) {
      // Frozen: every subscriber gets this one object, and the journal writes its line at the
      // end of the turn, so a change made by one would reach the others and the record. (The
      // journal freezes what it numbers: without subscribers, that is the only freeze.)
      Object.freeze(event);
      this.subject.next(event);
    }
    return this.journal?.append(event, wait);
  }
}
