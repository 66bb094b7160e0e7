import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { McpRequest } from '../server/dispatch/mcp-request.interface.js';
import { McpAuditService } from './audit/mcp-audit.service.js';
import { McpReadDeniedError } from './authorization.exceptions.js';
import { McpAuthorizationService } from './mcp-authorization.service.js';

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

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.getArgByIndex<McpRequest>(0);
    const { method } = request;
    const authContext = { connId: request.connection.id, transport: request.transport };
    const decision = await this.authorization.decideRead(
      method,
      readArguments(request),
      authContext,
    );
    const detail =
      decision.kind === 'deny'
        ? decision.reason
        : decision.kind === 'ask'
          ? INTERACTIVE_APPROVAL_UNSUPPORTED
          : undefined;
    this.audit.record({
      ...authContext,
      seam: 'read',
      name: method,
      decision: decision.kind,
      detail,
    });
    if (decision.kind !== 'allow') throw new McpReadDeniedError(method, detail!);
    return true;
  }
}

/** What the read authorizer is shown for each method. */
export function readArguments(request: McpRequest): Record<string, unknown> {
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
    default:
      return {};
  }
}
