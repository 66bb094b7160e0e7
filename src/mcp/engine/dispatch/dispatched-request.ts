import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpTransportKind } from '../../core/protocol/transport-kind.js';
import type { ToolSeamVerdict } from '../../authorization/tool-seam-verdict.interface.js';
import type { RequestId } from '../../core/protocol/jsonrpc.js';
import type { ClientCapabilities, LoggingLevel } from '../../core/protocol/mcp-types.js';
import type { McpEra } from '../../core/protocol/era.constants.js';
import type { McpInputRound } from '../../core/multi-round-trip/input-round.js';
import type { McpRequestEnvelope } from '../../core/protocol/request-envelope.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import type { RequestCancellation } from '../connection/request-cancellation.js';
import type { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';
import type { McpMessageOrigin } from './message-origin.interface.js';
import type { McpRequest } from './mcp-request.interface.js';

/** The request object the dispatcher builds once per request (methods on the prototype, no closures). */
export class DispatchedRequest implements McpRequest {
  // Initialised, so every request has the same shape whether or not a seam or the audit set them.
  toolSeam?: ToolSeamVerdict = undefined;
  auditId?: string = undefined;
  canonicalArguments?: string | null = undefined;
  outcomeRecorded?: boolean = undefined;

  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly params: Record<string, unknown>,
    readonly connection: McpConnection,
    private readonly origin: McpMessageOrigin,
    private readonly cancellation: RequestCancellation,
    private readonly outbound: Pick<McpOutboundRequests, 'request'>,
    /** A modern request's own declaration; absent in the handshake era. */
    private readonly envelope?: McpRequestEnvelope,
    /** A modern request's multi round-trip state (tools/call, prompts/get, resources/read). */
    readonly input?: McpInputRound,
  ) {}

  get era(): McpEra {
    return this.envelope ? 'modern' : 'legacy';
  }

  get transport(): McpTransportKind {
    return this.origin.transport;
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.envelope ? this.envelope.clientCapabilities : this.connection.capabilities;
  }

  get logLevel(): LoggingLevel | undefined {
    return this.envelope ? this.envelope.logLevel : this.connection.logLevel;
  }

  get principal(): McpPrincipal | undefined {
    return this.origin.principal;
  }

  get httpRequest(): IncomingMessage | undefined {
    return this.origin.httpRequest;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  get cancelled(): boolean {
    return this.cancellation.aborted;
  }

  expire(reason: string): void {
    this.cancellation.expire(new Error(reason));
  }

  requestClient(method: string, params: object, key?: string): Promise<unknown> {
    // The modern era sends no requests to the client: the round asks in its result.
    if (this.input) return this.input.request(method, params, key);
    if (this.envelope) {
      return Promise.reject(new McpToolError(`${this.method} cannot ask the client in this era`));
    }
    return this.outbound.request(this.connection, method, params, {
      relatedRequestId: this.id,
      signal: this.signal,
    });
  }
}
