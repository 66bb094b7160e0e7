import { Inject, Injectable, Optional } from '@nestjs/common';
import type {
  McpCredentials,
  McpExchangedToken,
  McpExchangeRequest,
} from '../../authentication/token-exchange/credentials.interface.js';
import { McpTokenExchangeError } from '../../authentication/token-exchange/token-exchange.error.js';
import { McpTokenExchanger } from '../../authentication/token-exchange/token-exchanger.service.js';
import { McpAuditService } from '../../authorization/audit/mcp-audit.service.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';

/**
 * `ctx.credentials` for a request: token exchange as its caller (docs/token-exchange.md), each
 * one an audit event linked to the call's decision. The exchanger comes with the HTTP transport;
 * without it (a stdio-only server) an exchange says why it cannot work.
 */
@Injectable()
export class McpCallerCredentials {
  constructor(
    private readonly audit: McpAuditService,
    @Optional()
    @Inject(McpTokenExchanger)
    private readonly exchanger: McpTokenExchanger | null = null,
  ) {}

  /** The credentials of `request`'s caller. */
  of(request: McpRequest): McpCredentials {
    return { exchange: (ask) => this.exchange(request, ask) };
  }

  private exchange(request: McpRequest, ask: McpExchangeRequest): Promise<McpExchangedToken> {
    const name = subjectOf(request);
    if (!this.exchanger) {
      // No HTTP transport here: the exchanger's own checks would say the same, by the same codes.
      const [error, why] =
        request.transport === 'stdio'
          ? [
              'no_inbound_token',
              'token exchange needs the caller’s bearer token, and a stdio caller has none',
            ]
          : ['not_configured', 'token exchange is not configured (http.auth.tokenExchange)'];
      this.audit.exchange(request, name, { audience: ask?.audience, result: 'refused', error });
      return Promise.reject(new McpTokenExchangeError(why));
    }
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
