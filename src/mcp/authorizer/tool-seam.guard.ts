import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { McpRequest } from '../server/dispatch/mcp-request.interface.js';
import { McpRegistry } from '../registry/mcp-registry.service.js';
import { McpAuditService } from './audit/mcp-audit.service.js';
import type { AuthorizerDecision } from './authorizer.interface.js';
import {
  McpToolApprovalRequiredException,
  McpToolDeniedException,
} from './authorization.exceptions.js';
import { isPromiseLike } from '../common/maybe-promise.js';
import { McpAuthorizationService } from './mcp-authorization.service.js';

type CallParams = { name: string; arguments?: Record<string, unknown> };

/**
 * The tool seam, in front of `tools/call`. It runs before input validation, so
 * the authorizer sees the raw arguments and a denied caller learns nothing
 * about the tool's schema (or whether an unlisted tool exists).
 */
@Injectable()
export class ToolSeamGuard implements CanActivate {
  constructor(
    protected readonly authorization: McpAuthorizationService,
    protected readonly registry: McpRegistry,
    protected readonly audit: McpAuditService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.getArgByIndex<McpRequest<CallParams>>(0);
    const { name } = request.params;
    const tool = this.registry.tool(name);
    const decision = this.authorization.decideTool(
      name,
      request.params.arguments ?? {},
      { connId: request.connection.id, transport: request.transport },
      tool?.sensitive === true,
    );
    return isPromiseLike(decision)
      ? decision.then((settled) => this.conclude(request, settled, tool !== undefined))
      : this.conclude(request, decision, tool !== undefined);
  }

  protected conclude(
    request: McpRequest<CallParams>,
    decision: AuthorizerDecision,
    known: boolean,
  ): boolean {
    const { name } = request.params;
    const detail =
      decision.kind === 'deny'
        ? decision.reason
        : decision.kind === 'ask'
          ? decision.prompt
          : undefined;
    this.audit.record(
      request.connection.id,
      request.transport,
      'tool',
      name,
      decision.kind,
      detail,
    );
    if (decision.kind === 'deny') throw new McpToolDeniedException(name, 'deny', decision.reason);
    // An unknown tool is reported as such by the handler only once the seam let it through.
    if (decision.kind === 'ask' && known) {
      throw new McpToolApprovalRequiredException(name, decision.prompt);
    }
    return true;
  }
}
