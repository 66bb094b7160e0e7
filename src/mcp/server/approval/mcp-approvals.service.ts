import { Injectable, Logger } from '@nestjs/common';
import { McpAuditService } from '../../authorizer/audit/mcp-audit.service.js';
import {
  McpToolDeniedException,
  type McpToolApprovalRequiredException,
} from '../../authorizer/authorization.exceptions.js';
import { jsonRpcResult, type JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { McpInvalidParamsError } from '../../protocol/mcp.errors.js';
import { relateToRequest } from '../../protocol/related-request.js';
import { McpRegistry } from '../../registry/mcp-registry.service.js';
import { canElicit } from '../context/client-requests.js';
import { errorResponse } from '../dispatch/error-response.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';
import { McpOutboundRequestError } from '../outbound/outbound-request.errors.js';
import { McpToolInvoker } from '../tools/tool-invoker.service.js';

type CallParams = { name: string; arguments?: Record<string, unknown> };

/** Why a parked call was denied, by how its elicitation ended. */
const FAILURE_DETAIL: Record<string, string> = {
  timeout: 'elicitation timed out',
  error_reply: 'elicitation failed',
  connection_closed: 'connection closed',
};

/**
 * Human approval for `ask` decisions on the tool seam. A call from a
 * connection that declared `elicitation` (and is being drained) is parked:
 * `handleMessage` returns null at once, `elicitation/create` goes to that
 * connection only, and the call's response is pushed later on the same
 * channel with the original id. Only an explicit approval runs the tool; every
 * other ending is the `decision: "ask"` deny. Silence is never consent.
 */
@Injectable()
export class McpApprovals {
  private readonly logger = new Logger('McpApprovals');

  constructor(
    private readonly outbound: McpOutboundRequests,
    private readonly registry: McpRegistry,
    private readonly invoker: McpToolInvoker,
    private readonly audit: McpAuditService,
  ) {}

  /** True when `request`'s connection can be asked for approval. */
  canAsk(request: McpRequest): boolean {
    return canElicit(request, 'form') && request.connection.live;
  }

  /**
   * Parks the call and asks the user. `release` is called once the call is
   * closed (by any path). Throws the deny when no more calls may be parked.
   */
  park(
    request: McpRequest<CallParams>,
    ask: McpToolApprovalRequiredException,
    release: () => void,
  ): void {
    const tool = request.params.name;
    if (!this.outbound.hasRoom(request.connection)) {
      throw new McpToolDeniedException(tool, 'ask', 'too many calls awaiting approval');
    }
    const params = {
      message: ask.prompt,
      requestedSchema: {
        type: 'object',
        properties: {
          approve: { type: 'boolean', description: `Approve running the ${tool} tool` },
        },
        required: ['approve'],
      },
    };
    this.outbound
      .request(request.connection, 'elicitation/create', params, {
        relatedRequestId: request.id,
        signal: request.signal,
      })
      .then(
        (answer) => this.answered(request, answer),
        (error: unknown) => this.failed(request, error),
      )
      .then((reply) => {
        if (reply) request.connection.send(relateToRequest(reply, request.id));
      })
      .catch((error: unknown) =>
        this.logger.error(`closing parked ${tool} failed: ${String(error)}`),
      )
      .finally(release);
  }

  private async answered(
    request: McpRequest<CallParams>,
    answer: unknown,
  ): Promise<JsonRpcMessage | null> {
    const { action, content } = answer as { action?: unknown; content?: { approve?: unknown } };
    if (action === 'accept' && content?.approve === true) {
      this.record(request, 'allow', 'user approved');
      return this.run(request);
    }
    const detail =
      action === 'decline'
        ? 'user declined'
        : action === 'cancel'
          ? 'user cancelled'
          : action === 'accept'
            ? 'user did not approve'
            : 'elicitation failed';
    return this.deny(request, detail);
  }

  private failed(request: McpRequest<CallParams>, error: unknown): JsonRpcMessage | null {
    const reason = error instanceof McpOutboundRequestError ? error.reason : 'error_reply';
    // A call cancelled while parked never runs and gets no response.
    if (reason === 'cancelled') {
      this.record(request, 'deny', 'call cancelled');
      return null;
    }
    return this.deny(request, FAILURE_DETAIL[reason] ?? 'elicitation failed');
  }

  private deny(request: McpRequest<CallParams>, detail: string): JsonRpcMessage {
    this.record(request, 'deny', detail);
    const denial = new McpToolDeniedException(request.params.name, 'ask', detail);
    return jsonRpcResult(request.id, denial.toResult());
  }

  /* The seam already decided (ask) and the user approved: it is not consulted again. */
  private async run(request: McpRequest<CallParams>): Promise<JsonRpcMessage | null> {
    const entry = this.registry.tool(request.params.name);
    try {
      if (!entry) throw new McpInvalidParamsError(`Unknown tool: ${request.params.name}`);
      const result = await this.invoker.run(entry, request.params.arguments ?? {}, request);
      return request.cancelled ? null : jsonRpcResult(request.id, result);
    } catch (error) {
      if (request.cancelled) return null;
      if (error instanceof McpToolDeniedException)
        return jsonRpcResult(request.id, error.toResult());
      return errorResponse(request.id, error, 'tools/call');
    }
  }

  private record(
    request: McpRequest<CallParams>,
    decision: 'allow' | 'deny',
    detail: string,
  ): void {
    const { connection, transport } = request;
    this.audit.record(
      connection.id,
      transport,
      'elicitation',
      request.params.name,
      decision,
      detail,
    );
  }
}
