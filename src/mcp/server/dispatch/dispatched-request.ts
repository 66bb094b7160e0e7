import type { McpTransportKind } from '../../authorizer/authorizer.interface.js';
import type { RequestId } from '../../protocol/jsonrpc.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import type { RequestCancellation } from '../connection/request-cancellation.js';
import type { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';
import type { McpRequest } from './mcp-request.interface.js';

/** The request object the dispatcher builds once per request (methods on the prototype, no closures). */
export class DispatchedRequest implements McpRequest {
  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly params: Record<string, unknown>,
    readonly connection: McpConnection,
    readonly transport: McpTransportKind,
    private readonly cancellation: RequestCancellation,
    private readonly outbound: McpOutboundRequests,
  ) {}

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  get cancelled(): boolean {
    return this.cancellation.aborted;
  }

  expire(reason: string): void {
    this.cancellation.expire(new Error(reason));
  }

  requestClient(method: string, params: object): Promise<unknown> {
    return this.outbound.request(this.connection, method, params, {
      relatedRequestId: this.id,
      signal: this.signal,
    });
  }
}
