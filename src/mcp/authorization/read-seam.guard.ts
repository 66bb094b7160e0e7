import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { isPromiseLike } from '../core/common/maybe-promise.js';
import type { McpSeamRequest } from './seam-request.interface.js';
import { McpAuditService } from './audit/mcp-audit.service.js';
import type { AuthorizerDecision } from './authorizer.interface.js';
import type { TracedDecision } from './seam-policy.interface.js';
import { contextOf } from './authorizer-context.js';
import { McpAuthorizationService } from './mcp-authorization.service.js';
import { McpReadDeniedError } from './read-denied.error.js';

/** Detail of a read denied because the read authorizer answered `ask`. */
export const INTERACTIVE_APPROVAL_UNSUPPORTED = 'interactive_approval_unsupported';

/**
 * The read seam, in front of every list, read, get, subscribe and completion
 * method. The authorizer gets the method name and only the parameters that
 * identify what is read. An `ask` denies without echoing its prompt.
 */
@Injectable()
export class ReadSeamGuard implements CanActivate {
  constructor(
    protected readonly authorization: McpAuthorizationService,
    protected readonly audit: McpAuditService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.getArgByIndex<McpSeamRequest>(0);
    const decision = this.authorization.decideRead(
      request.method,
      readArguments(request),
      contextOf(request),
    );
    return isPromiseLike(decision)
      ? decision.then((settled) => this.conclude(request, settled))
      : this.conclude(request, decision);
  }

  protected conclude(request: McpSeamRequest, decision: AuthorizerDecision): boolean {
    const { method } = request;
    const detail =
      decision.kind === 'deny'
        ? decision.reason
        : decision.kind === 'ask'
          ? INTERACTIVE_APPROVAL_UNSUPPORTED
          : undefined;
    this.audit.record(
      request,
      'read',
      method,
      decision.kind,
      detail,
      undefined,
      (decision as TracedDecision).trace,
    );
    if (decision.kind !== 'allow') throw new McpReadDeniedError(method, detail!);
    return true;
  }
}

/** What the read authorizer is shown for each method. */
export function readArguments(request: McpSeamRequest): Record<string, unknown> {
  const params = request.params as Record<string, unknown>;
  switch (request.method) {
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return { uri: params.uri };
    case 'prompts/get':
      return { name: params.name, arguments: params.arguments ?? {} };
    case 'completion/complete':
      return { ref: params.ref };
    case 'subscriptions/listen':
      return { notifications: params.notifications };
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel':
      return { taskId: params.taskId };
    default:
      return {};
  }
}
