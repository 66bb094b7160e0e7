import type { MaybePromise } from '../../mcp/core/common/maybe-promise.js';
import { McpWardenError } from '../../mcp/core/errors/mcp-warden.error.js';
import { JsonRpcErrorCode } from '../../mcp/core/protocol/error-codes.constants.js';
import {
  isJsonObject,
  jsonRpcError,
  jsonRpcResult,
  type JsonRpcMessage,
  type RequestId,
} from '../../mcp/core/protocol/jsonrpc.js';
import { relatedRequestOf } from '../../mcp/core/protocol/related-request.js';
import type { McpCallerApprover } from './caller-approver.js';
import type { McpApprovalRequest } from './mcp-test-client.options.js';

/** A request the client sent and is still waiting on: what an approval is about. */
export interface McpSentRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

type AnyHandler = (params: never) => MaybePromise<object>;

/**
 * Answers the server's requests to one client. An approval (the
 * `elicitation/create` the server sends for an `ask` on one of this client's
 * own `tools/call`s) goes to the approver; anything else goes to the
 * handler registered for its method, else a tool's elicitation is declined
 * and any other method is answered -32601, so no server request is left
 * waiting for its timeout.
 */
export class McpServerRequestResponder {
  private readonly handlers = new Map<string, AnyHandler>();

  constructor(
    private readonly approver: McpCallerApprover,
    private readonly sentRequest: (id: RequestId) => McpSentRequest | undefined,
  ) {}

  /** Answers `method` with `handler` from now on (an approval still goes to the approver). */
  setHandler(method: string, handler: AnyHandler): void {
    this.handlers.set(method, handler);
  }

  /** The response to `request`; never rejects (a failing handler becomes an error reply). */
  async respond(
    request: JsonRpcMessage & { id: RequestId; method: string },
  ): Promise<JsonRpcMessage> {
    const params = isJsonObject(request.params) ? request.params : {};
    try {
      return jsonRpcResult(request.id, await this.resultOf(request, params));
    } catch (error) {
      if (error instanceof McpWardenError) {
        return jsonRpcError(request.id, error.code, error.message, error.data);
      }
      const message = error instanceof Error ? error.message : String(error);
      return jsonRpcError(request.id, JsonRpcErrorCode.InternalError, message);
    }
  }

  private async resultOf(request: JsonRpcMessage, params: Record<string, unknown>) {
    const method = request.method as string;
    const approval = method === 'elicitation/create' ? this.approvalOf(request, params) : undefined;
    if (approval) return this.approver.decide(approval);
    const handler = this.handlers.get(method);
    if (handler) return handler(params as never);
    if (method === 'elicitation/create') return { action: 'decline' };
    throw new McpWardenError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  /* An approval is an elicitation about one of our tool calls, with the server's approve schema. */
  private approvalOf(
    request: JsonRpcMessage,
    params: Record<string, unknown>,
  ): McpApprovalRequest | undefined {
    const relatedId = relatedRequestOf(request);
    const call = relatedId === undefined ? undefined : this.sentRequest(relatedId);
    if (call?.method !== 'tools/call' || typeof call.params.name !== 'string') return undefined;
    const tool = call.params.name;
    if (!isApprovalSchema(params.requestedSchema, tool)) return undefined;
    const args = isJsonObject(call.params.arguments) ? call.params.arguments : {};
    return { tool, arguments: args, message: String(params.message ?? '') };
  }
}

/* The schema the server asks approvals with (see the elicitation contract). */
function isApprovalSchema(schema: unknown, tool: string): boolean {
  if (!isJsonObject(schema) || schema.type !== 'object' || !isJsonObject(schema.properties)) {
    return false;
  }
  const { approve, ...others } = schema.properties as Record<string, unknown>;
  return (
    isJsonObject(approve) &&
    approve.type === 'boolean' &&
    approve.description === `Approve running the ${tool} tool` &&
    Object.keys(others).length === 0 &&
    Array.isArray(schema.required) &&
    schema.required.length === 1 &&
    schema.required[0] === 'approve'
  );
}
