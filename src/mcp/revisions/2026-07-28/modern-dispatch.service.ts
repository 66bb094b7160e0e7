import { Injectable } from '@nestjs/common';
import type {
  McpModernCall,
  McpModernRevision,
} from '../../engine/dispatch/modern-revision.interface.js';
import { quotaKeyOf } from '../../authentication/quota-key.js';
import { jsonRpcResult, type JsonRpcMessage } from '../../core/protocol/jsonrpc.js';
import { McpParkedCall } from '../../engine/dispatch/parked-call.js';
import { DispatchedRequest } from '../../engine/dispatch/dispatched-request.js';
import { errorResponse } from '../../engine/dispatch/error-response.js';
import { McpOutboundRequests } from '../../engine/outbound/mcp-outbound-requests.service.js';
import { McpModernEra } from './modern-era.service.js';
import { requestLogFields } from '../../core/common/log-fields.js';

/**
 * The modern era's step of dispatch: nothing parks (the client answers
 * questions by retrying), a round that asked for input answers
 * input-required, and results and errors take the era's shape.
 */
@Injectable()
export class McpModernDispatch implements McpModernRevision {
  constructor(
    private readonly modern: McpModernEra,
    private readonly outbound: McpOutboundRequests,
  ) {}

  /** A complete modern result, for an answer made before any handler ran. */
  complete(result: object): object {
    return this.modern.complete(result);
  }

  /** An error response in the modern era's shape. */
  error(response: JsonRpcMessage): JsonRpcMessage {
    return this.modern.error(response);
  }

  /** The answer to `call`, or null when it was cancelled (a cancelled request is never answered). */
  async serve(call: McpModernCall): Promise<JsonRpcMessage | null> {
    const { id, method, raw, params, connection, origin, envelope, cancellation, route } = call;
    let request: DispatchedRequest | undefined;
    try {
      // A presented state's nonce counts against its caller's share, as other quotas do.
      const caller = quotaKeyOf(origin.principal, origin.httpRequest, connection.id);
      const input = await this.modern.round(method, raw, params, origin.principal, caller);
      request = new DispatchedRequest(
        id,
        method,
        params,
        connection,
        origin,
        cancellation,
        this.outbound,
        envelope,
        input,
      );
      let result = await route.invoke(request);
      // Only `subscriptions/listen` waits here, until the stream ends.
      if (result instanceof McpParkedCall) result = await result.result;
      if (request.cancelled) return null;
      return jsonRpcResult(id, await this.modern.result(request, result as object));
    } catch (error) {
      if (request?.cancelled) return null;
      let failure = error;
      try {
        const instead = request && (await this.modern.inputRequiredInstead(request));
        if (instead) return jsonRpcResult(id, instead);
      } catch (sealing) {
        // The round asked, but its state could not be sealed (too large): that is the answer.
        failure = sealing;
      }
      const fields = request && requestLogFields(request);
      return this.modern.error(errorResponse(id, failure, method, fields));
    }
  }
}
