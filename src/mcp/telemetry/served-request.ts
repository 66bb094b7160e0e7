import type { Attributes, Span } from '@opentelemetry/api';
import type { McpConnection } from '../engine/connection/mcp-connection.js';
import type { McpMessageOrigin } from '../engine/dispatch/message-origin.interface.js';
import type { RequestId } from '../core/protocol/jsonrpc.js';
import type { McpOperationOutcome } from './operation-outcome.js';

/** What the telemetry holds for one request from its arrival to its answer. */
export interface ServedRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly params: unknown;
  readonly connection: McpConnection;
  readonly origin: McpMessageOrigin;
  /** `performance.now()` at arrival. */
  readonly start: number;
  /** The server span; undefined when nothing records traces. */
  readonly span?: Span;
  /** Set by a parked call's late answer, before its outcome settles. */
  outcome?: McpOperationOutcome;
  ended: boolean;
}

/** Extra attributes a span gets at its end (the outcome's). */
export function outcomeAttributes(outcome: McpOperationOutcome): Attributes | undefined {
  if (outcome.errorType === undefined) return undefined;
  const attributes: Attributes = { 'error.type': outcome.errorType };
  if (outcome.statusCode !== undefined) attributes['rpc.response.status_code'] = outcome.statusCode;
  return attributes;
}
