import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthorizationSettings } from '../../authorization/authorization-settings.interface.js';
import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import {
  isJsonObject,
  jsonRpcNotification,
  type JsonRpcMessage,
  type RequestId,
} from '../../core/protocol/jsonrpc.js';
import { relateToRequest } from '../../core/protocol/related-request.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import { McpOutboundRequestError } from './outbound-request.errors.js';

interface Pending {
  readonly connection: McpConnection;
  readonly settle: (outcome: { result?: unknown; error?: McpOutboundRequestError }) => void;
}

/** Options of one server→client request. */
export interface OutboundRequestOptions {
  /** The client request this one serves; transports route it onto that request's stream. */
  relatedRequestId?: RequestId;
  /** Aborting it ends the request with reason `cancelled`. */
  signal?: AbortSignal;
  /** Default: `elicitationTimeoutMs`. */
  timeoutMs?: number;
}

/**
 * Requests the server sends to one client (elicitation, sampling, roots), and
 * the matching of the client's answers. Each request has an unguessable id and
 * settles exactly once: with the answer, an error reply, its timeout, its
 * cancellation, or its connection closing. An answer is accepted only from
 * the connection the request went to; any other answer — foreign, late,
 * duplicate or forged — is ignored exactly like an unknown id.
 */
@Injectable()
export class McpOutboundRequests {
  private readonly pending = new Map<string, Pending>();
  private readonly perConnection = new Map<McpConnection, number>();
  private readonly defaultTimeoutMs: number;
  private readonly limits: McpAuthorizationSettings['limits'];

  constructor(@Inject(MCP_OPTIONS) options: McpAuthorizationSettings) {
    this.defaultTimeoutMs = options.elicitationTimeoutMs;
    this.limits = options.limits;
  }

  /** How many requests await an answer (all connections). */
  get size(): number {
    return this.pending.size;
  }

  /** Whether `connection` may have one more request pending. */
  hasRoom(connection: McpConnection): boolean {
    const count = this.perConnection.get(connection) ?? 0;
    return (
      count < this.limits.maxPendingPerConnection && this.pending.size < this.limits.maxPendingTotal
    );
  }

  /** Sends `method` to `connection` and resolves with the client's result. */
  request(
    connection: McpConnection,
    method: string,
    params: object,
    options: OutboundRequestOptions = {},
  ): Promise<unknown> {
    const count = this.perConnection.get(connection) ?? 0;
    if (!this.hasRoom(connection)) {
      return Promise.reject(new McpOutboundRequestError('limit', 'too many pending requests'));
    }
    if (options.signal?.aborted) {
      return Promise.reject(new McpOutboundRequestError('cancelled', 'request cancelled'));
    }
    const id = randomBytes(18).toString('base64url');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish({ error: new McpOutboundRequestError('timeout', `${method} timed out`) }),
        options.timeoutMs ?? this.defaultTimeoutMs,
      );
      const onAbort = () =>
        finish({ error: new McpOutboundRequestError('cancelled', 'request cancelled') });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const offClose = connection.onClose(() =>
        finish({ error: new McpOutboundRequestError('connection_closed', 'connection closed') }),
      );
      const finish: Pending['settle'] = ({ result, error }) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        offClose();
        this.decrement(connection);
        // Tell the client to drop a request the server gave up on (its prompt may still be open).
        if (error?.reason === 'timeout' || error?.reason === 'cancelled') {
          const notice = jsonRpcNotification('notifications/cancelled', {
            requestId: id,
            reason: error.message,
          });
          connection.send(
            options.relatedRequestId === undefined
              ? notice
              : relateToRequest(notice, options.relatedRequestId),
          );
        }
        if (error) reject(error);
        else resolve(result);
      };
      this.pending.set(id, { connection, settle: finish });
      this.perConnection.set(connection, count + 1);
      const message: JsonRpcMessage = { jsonrpc: '2.0', id, method, params };
      if (options.relatedRequestId !== undefined)
        relateToRequest(message, options.relatedRequestId);
      connection.send(message);
    });
  }

  /**
   * Ends every request pending on `connection` as its closing would
   * ("connection closed"), while the connection is still open: the calls
   * waiting on them answer on it before it goes (a shutdown, stdin's end).
   */
  abandonFor(connection: McpConnection): void {
    const closed = new McpOutboundRequestError('connection_closed', 'connection closed');
    for (const entry of [...this.pending.values()]) {
      if (entry.connection === connection) entry.settle({ error: closed });
    }
  }

  /** Matches a client response to its request; ignores anything it cannot match. */
  answer(message: JsonRpcMessage, connection: McpConnection): void {
    const id = message.id;
    if (typeof id !== 'string') return;
    const entry = this.pending.get(id);
    if (!entry || entry.connection !== connection) return;
    if ('error' in message) {
      const failure = new McpOutboundRequestError(
        'error_reply',
        'client answered with an error',
        message.error,
      );
      entry.settle({ error: failure });
    } else if (isJsonObject(message.result)) {
      entry.settle({ result: message.result });
    } else {
      entry.settle({ error: new McpOutboundRequestError('error_reply', 'malformed result') });
    }
  }

  private decrement(connection: McpConnection): void {
    const count = (this.perConnection.get(connection) ?? 1) - 1;
    if (count <= 0) this.perConnection.delete(connection);
    else this.perConnection.set(connection, count);
  }
}
