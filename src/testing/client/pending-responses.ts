import type { JsonRpcMessage, RequestId } from '../../mcp/core/protocol/jsonrpc.js';
import type { McpSentRequest } from './server-request.responder.js';

interface Waiter {
  readonly request: McpSentRequest;
  readonly resolve: (response: JsonRpcMessage) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One client's requests that are waiting for their response. A call parked
 * for approval is answered later on the outbound channel with its original
 * id, possibly before `dispatch()` has even said it parked, so the waiter is
 * registered before the request is sent.
 */
export class McpPendingResponses {
  private readonly waiters = new Map<RequestId, Waiter>();

  /** Registers `id`; the promise settles with its response, or rejects when the client closes. */
  expect(id: RequestId, request: McpSentRequest): Promise<JsonRpcMessage> {
    const response = new Promise<JsonRpcMessage>((resolve, reject) =>
      this.waiters.set(id, { request, resolve, reject }),
    );
    // Answered at once, a request's promise is never awaited; its rejection at close is not an error.
    response.catch(() => undefined);
    return response;
  }

  /** The request `id` this client sent, while it waits (approvals are matched to it). */
  request(id: RequestId): McpSentRequest | undefined {
    return this.waiters.get(id)?.request;
  }

  /** Settles `id` with `response`; false when nothing waits for it. */
  settle(id: RequestId, response: JsonRpcMessage): boolean {
    const waiter = this.waiters.get(id);
    if (!waiter) return false;
    this.waiters.delete(id);
    waiter.resolve(response);
    return true;
  }

  /** Stops waiting for `id` (it was answered at once, or never will be). */
  forget(id: RequestId): void {
    this.waiters.delete(id);
  }

  /** Rejects every waiter: the connection is gone, so no response can come. */
  rejectAll(error: Error): void {
    const waiters = [...this.waiters.values()];
    this.waiters.clear();
    for (const waiter of waiters) waiter.reject(error);
  }
}
