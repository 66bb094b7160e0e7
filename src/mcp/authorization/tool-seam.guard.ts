import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { isPromiseLike } from '../core/common/maybe-promise.js';
import type { McpSeamRequest } from './seam-request.interface.js';
import type { McpToolEntry } from '../definitions/interfaces/registry-entry.interface.js';
import { McpRegistry } from '../definitions/mcp-registry.service.js';
import { McpAuditService } from './audit/mcp-audit.service.js';
import { AUDIT_UNAVAILABLE, UNRECORDABLE_ARGUMENTS } from './audit/audit-reasons.js';
import type { AuthorizerDecision } from './authorizer.interface.js';
import type { TracedDecision } from './seam-policy.interface.js';
import { McpAuthorizationService } from './mcp-authorization.service.js';
import { contextOf } from './authorizer-context.js';

type CallParams = { name: string; arguments?: Record<string, unknown> };

/**
 * The tool seam, in front of `tools/call`. It decides and records the
 * decision; it never blocks the handler, which owns the call and branches on
 * the verdict (run, park for approval, or deny). It runs before input
 * validation, so the authorizer sees the raw arguments and a denied caller
 * learns nothing about the tool's schema (or whether an unlisted tool exists).
 */
@Injectable()
export class ToolSeamGuard implements CanActivate {
  constructor(
    protected readonly authorization: McpAuthorizationService,
    protected readonly registry: McpRegistry,
    protected readonly audit: McpAuditService,
  ) {}

  canActivate(context: ExecutionContext): true | Promise<true> {
    const request = context.getArgByIndex<McpSeamRequest<CallParams>>(0);
    const entry = this.registry.tool(request.params.name);
    const decision = this.authorization.decideTool(
      request.params.name,
      request.params.arguments ?? {},
      contextOf(request),
      entry?.sensitive === true,
    );
    return isPromiseLike(decision)
      ? decision.then((settled) => this.conclude(request, settled, entry))
      : this.conclude(request, decision, entry);
  }

  /**
   * Records the decision and hands it to the handler. With `audit.failClosed` the call waits
   * until its decision record is kept, and denies (`audit_unavailable`) when it cannot be: no
   * action without a record (docs/audit.md).
   */
  protected conclude(
    request: McpSeamRequest<CallParams>,
    settled: AuthorizerDecision,
    entry: McpToolEntry | undefined,
  ): true | Promise<true> {
    // Arguments the record cannot name by their digest: the call does not happen.
    const decision: AuthorizerDecision =
      settled.kind === 'deny' || this.audit.recordsArguments(request)
        ? settled
        : { kind: 'deny', reason: UNRECORDABLE_ARGUMENTS };
    const detail =
      decision.kind === 'deny'
        ? decision.reason
        : decision.kind === 'ask'
          ? decision.prompt
          : undefined;
    const kept = this.audit.record(
      request,
      'tool',
      request.params.name,
      decision.kind,
      detail,
      undefined,
      (decision as TracedDecision).trace,
    );
    request.toolSeam = { decision, entry };
    if (!kept) return true;
    return kept.then(
      () => true as const,
      () => {
        request.toolSeam = { decision: { kind: 'deny', reason: AUDIT_UNAVAILABLE }, entry };
        void this.audit.record(request, 'tool', request.params.name, 'deny', AUDIT_UNAVAILABLE);
        return true as const;
      },
    );
  }
}
