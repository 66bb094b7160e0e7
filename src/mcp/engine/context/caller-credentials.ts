import { Injectable } from '@nestjs/common';
import type {
  McpCredentials,
  McpExchangedToken,
  McpExchangeRequest,
} from '../../authentication/token-exchange/credentials.interface.js';
import { McpTokenExchanger } from '../../authentication/token-exchange/token-exchanger.service.js';
import { McpAuditService } from '../../authorization/audit/mcp-audit.service.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';

/**
 * `ctx.credentials` for a request: token exchange as its caller (docs/token-exchange.md), each
 * one an audit event linked to the call's decision. The exchanger says why an exchange cannot
 * work (stdio, no token, not configured).
 */
@Injectable()
export class McpCallerCredentials {
  constructor(
    private readonly audit: McpAuditService,
    private readonly exchanger: McpTokenExchanger,
  ) {}

  /** The credentials of `request`'s caller. */
  of(request: McpRequest): McpCredentials {
    return { exchange: (ask) => this.exchange(request, ask) };
  }

  private exchange(request: McpRequest, ask: McpExchangeRequest): Promise<McpExchangedToken> {
    const name = subjectOf(request);
    return this.exchanger.exchange(request, ask, (report) =>
      this.audit.exchange(request, name, report),
    );
  }
}

/** What the request acts on: the tool, the prompt, or the resource's URI. */
function subjectOf(request: McpRequest): string {
  const params = request.params as { name?: unknown; uri?: unknown };
  const subject = typeof params.name === 'string' ? params.name : params.uri;
  return typeof subject === 'string' ? subject : request.method;
}
